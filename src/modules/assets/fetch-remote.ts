import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppError, badRequest, unprocessable } from '../../errors.js';

export interface RemoteFetchOptions {
  allowPrivate: boolean;
  maxBytes: number;
  maxRedirects: number;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  /** Exact addresses allowed although private (tests use it to put a loopback hop before a refused one). */
  allowAddresses?: string[];
}

export interface RemoteFile {
  body: Readable;
  /** The file name from the final URL's path, when it has one. */
  filename: string | undefined;
  declaredType: string | undefined;
  /** Aborts the download and releases the socket. */
  abort(): void;
}

// Cloud metadata endpoints stay refused even when private addresses are allowed (local testing).
const ALWAYS_DENIED = ['169.254.169.254', 'fd00:ec2::254'];

/** Refuses a literal IP host by address before anything is sent; hostnames are checked by the agent at connect time. */
function checkLiteralAddress(hostname: string, allowPrivate: boolean, allowAddresses: string[]): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host) || allowAddresses.includes(host)) return;
  let addr = ipaddr.parse(host);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (ALWAYS_DENIED.includes(addr.toString())) throw unprocessable(`src points at a cloud metadata address (${host}), which is not allowed`);
  if (range === 'unspecified') throw unprocessable(`src points at an unspecified address (${host}), which is not allowed`);
  if (!allowPrivate && range !== 'unicast') {
    throw unprocessable(`src points at a ${range} address (${host}); only public addresses are allowed`);
  }
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable('src must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw unprocessable(`src must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username || url.password) throw unprocessable('src must not contain credentials');
  return url;
}

/** Errors from the filtering agent carry this wording; they mean the address was refused, not a network fault. */
const isRefusal = (err: Error) => /is not allowed/.test(err.message);

function describeFailure(err: NodeJS.ErrnoException): AppError {
  if (err instanceof AppError) return err;
  if (isRefusal(err)) {
    const addr = /DNS lookup (\S+?)\(/.exec(err.message)?.[1];
    return unprocessable(`src resolves to a non-public address${addr ? ` (${addr})` : ''}; only public addresses are allowed`);
  }
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return badRequest('Could not download src: the host name does not resolve');
  if (err.code === 'ECONNREFUSED') return badRequest('Could not download src: the connection was refused');
  if (err.code === 'ETIMEDOUT' || err.name === 'TimeoutError') return badRequest(`Could not download src: ${err.message}`);
  return badRequest(`Could not download src: ${err.message || err.code || 'network error'}`);
}

function requestOnce(url: URL, options: RemoteFetchOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  const agentOptions = {
    allowPrivateIPAddress: options.allowPrivate,
    allowIPAddressList: options.allowAddresses ?? [],
    denyIPAddressList: ALWAYS_DENIED,
    keepAlive: false,
  };
  const isHttps = url.protocol === 'https:';
  const agent = isHttps ? new RequestFilteringHttpsAgent(agentOptions) : new RequestFilteringHttpAgent(agentOptions);
  return new Promise((resolve, reject) => {
    const req = (isHttps ? https : http).get(url, { agent, signal, headers: { 'user-agent': 'estate-publisher-asset-fetch/1', accept: '*/*' } }, resolve);
    const connectTimer = setTimeout(() => req.destroy(Object.assign(new Error('connecting took too long'), { code: 'ETIMEDOUT' })), options.connectTimeoutMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      socket.once('connect', () => clearTimeout(connectTimer));
      socket.once('secureConnect', () => clearTimeout(connectTimer));
    });
    req.on('response', () => clearTimeout(connectTimer));
    req.on('error', (err) => {
      clearTimeout(connectTimer);
      reject(err);
    });
  });
}

/**
 * Opens a download of src with SSRF protection: http/https only, every hop's address checked on the
 * socket actually connected (request-filtering-agent validates inside the DNS lookup the connection
 * uses, so a rebinding name cannot swap addresses), at most maxRedirects redirects, each re-checked.
 */
export async function openRemoteFile(src: string, options: RemoteFetchOptions): Promise<RemoteFile> {
  const controller = new AbortController();
  const total = setTimeout(() => controller.abort(Object.assign(new Error('the download took too long'), { name: 'TimeoutError' })), options.totalTimeoutMs);
  total.unref();
  const abort = () => {
    clearTimeout(total);
    controller.abort();
  };
  let url = parseUrl(src);
  try {
    for (let hop = 0; ; hop++) {
      checkLiteralAddress(url.hostname, options.allowPrivate, options.allowAddresses ?? []);
      const res = await requestOnce(url, options, controller.signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= options.maxRedirects) throw unprocessable(`src redirects more than ${options.maxRedirects} times`);
        let next: URL;
        try {
          next = new URL(res.headers.location, url);
        } catch {
          throw unprocessable('src redirects to an invalid URL');
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          throw unprocessable(`src redirects to a ${next.protocol.replace(/:$/, '')} URL; only http and https are allowed`);
        url = next;
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw badRequest(`Could not download src: the server answered ${status}`);
      }
      const length = Number(res.headers['content-length']);
      if (Number.isFinite(length) && length > options.maxBytes) {
        res.destroy();
        throw unprocessable(`src is larger than the ${Math.round(options.maxBytes / 1024 / 1024)} MB limit`);
      }
      res.on('close', () => clearTimeout(total));
      const filename = safeDecode(url.pathname.split('/').pop() ?? '') || undefined;
      return { body: res, filename, declaredType: res.headers['content-type'], abort };
    }
  } catch (err) {
    const timedOut = controller.signal.aborted;
    abort();
    if (timedOut && !(err instanceof AppError)) throw badRequest('Could not download src: the download took too long');
    throw describeFailure(err as NodeJS.ErrnoException);
  }
}
