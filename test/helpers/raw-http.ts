import net from 'node:net';

/** One HTTP/1.1 response as read off the socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A keep-alive HTTP/1.1 client on one raw socket: what is written goes out byte for byte (pipelined,
 * malformed, cut short), and responses are parsed as they arrive, so a test can count exactly how
 * many answers each connection got and see whether the server closed it.
 */
export class RawConnection {
  readonly responses: RawResponse[] = [];
  closed = false;
  private buffer = Buffer.alloc(0);
  /** Methods of the requests written, in order: a HEAD answer has no body whatever its headers say. */
  private readonly methods: string[] = [];
  private waiters = new Set<() => void>();
  private malformed: string | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
      this.notify();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes raw bytes; `methods` lists the requests they hold (for HEAD bodies), in order. */
  write(bytes: string | Buffer, methods: string[] = []): void {
    this.methods.push(...methods);
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** Resolves once `count` responses arrived in total, or the connection closed, or the time is up. */
  waitFor(count: number, timeoutMs: number): Promise<RawResponse[]> {
    return new Promise((resolve) => {
      const done = () => {
        if (this.responses.length >= count || this.closed || this.malformed) {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve(this.responses);
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(this.responses);
      }, timeoutMs);
      this.waiters.add(done);
      done();
    });
  }

  /** Set when the server sent bytes that are not an HTTP/1.1 response. */
  get protocolError(): string | undefined {
    return this.malformed;
  }

  /** Ends the client's side (a client that sent all it will send); the server decides what follows. */
  end(): void {
    this.socket.end();
  }

  close(): void {
    this.socket.destroy();
  }

  private notify() {
    for (const w of [...this.waiters]) w();
  }

  private parse() {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
      if (!status) {
        this.malformed = `not a status line: ${JSON.stringify(head[0]?.slice(0, 80))}`;
        return;
      }
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const code = Number(status[1]);
      const method = this.methods[this.responses.length];
      let rest = this.buffer.subarray(end + 4);
      let body: Buffer;
      if (method === 'HEAD' || code === 204 || code === 304 || (code >= 100 && code < 200)) {
        body = Buffer.alloc(0);
      } else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
        const decoded = decodeChunked(rest);
        if (!decoded) return;
        body = decoded.body;
        rest = rest.subarray(decoded.consumed);
      } else if (headers['content-length'] !== undefined) {
        const length = Number(headers['content-length']);
        if (rest.length < length) return;
        body = rest.subarray(0, length);
        rest = rest.subarray(length);
      } else {
        // No framing: the body runs to the close of the connection.
        if (!this.closed) return;
        body = rest;
        rest = Buffer.alloc(0);
      }
      if (code >= 100 && code < 200) {
        this.buffer = rest;
        continue;
      }
      this.responses.push({ status: code, headers, body });
      this.buffer = rest;
    }
  }
}

function decodeChunked(data: Buffer): { body: Buffer; consumed: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    const start = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = data.indexOf('\r\n\r\n', lineEnd);
      if (trailerEnd < 0) return undefined;
      return { body: Buffer.concat(parts), consumed: trailerEnd + 4 };
    }
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** A request as bytes, with Content-Length set from the body. */
export function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}
