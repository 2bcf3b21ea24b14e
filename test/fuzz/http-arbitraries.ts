import fc from 'fast-check';
import { png } from '../integration/assets-fixtures.js';
import { fullUnicodeString } from './arbitraries.js';

/** A multipart body and the Content-Type it is sent with. */
export interface MultipartCase {
  contentType: string;
  body: Buffer;
  /** The mutations applied, for the failure message. */
  mutations: string[];
}

type Part =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string | undefined; filenameStar: string | undefined; type: string | undefined; data: Buffer };

const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('file', 'name') },
  { weight: 1, arbitrary: fc.constantFrom('photo', '__proto__', 'constructor', '', 'x'.repeat(120)) },
  { weight: 1, arbitrary: fullUnicodeString(10) },
);

const fileData = fc.oneof(
  { weight: 4, arbitrary: fc.constant(png()) },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fullUnicodeString(200).map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.constant(Buffer.from('--fuzzb\r\n--fuzzb--\r\n\r\n--')) },
);

const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ kind: fc.constant('field' as const), name: fieldName, value: fc.oneof(fullUnicodeString(60), fc.constantFrom('Facade', ' ', 'x'.repeat(1500))) }),
  fc.record({
    kind: fc.constant('file' as const),
    name: fieldName,
    filename: fc.option(fc.oneof(fc.constantFrom('a.png', 'plan.csv', '', '../../etc/passwd', 'a"b.png'), fullUnicodeString(20)), { nil: undefined }),
    // RFC 2231 names in charsets busboy decodes: UTF-16LE can carry a lone surrogate (00 D8).
    filenameStar: fc.option(fc.constantFrom("utf-8''%F0%9F%98%80.png", "utf-16le''%00%D8", "utf-8''%00", "latin1''%E9.txt", "bogus''%ZZ"), {
      nil: undefined,
    }),
    type: fc.option(fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'text/csv; charset=utf-8', 'garbage', ''), { nil: undefined }),
    data: fileData,
  }),
);

function serialize(parts: Part[], boundary: string): Buffer {
  const pieces: Buffer[] = [];
  for (const p of parts) {
    const disposition = [`form-data; name="${p.name}"`];
    if (p.kind === 'file') {
      if (p.filename !== undefined) disposition.push(`filename="${p.filename}"`);
      if (p.filenameStar !== undefined) disposition.push(`filename*=${p.filenameStar}`);
      if (p.filename === undefined && p.filenameStar === undefined) disposition.push('filename=""');
    }
    let head = `--${boundary}\r\nContent-Disposition: ${disposition.join('; ')}\r\n`;
    if (p.kind === 'file' && p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    pieces.push(Buffer.from(`${head}\r\n`), p.kind === 'file' ? p.data : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

type Mutation = (c: MultipartCase, at: number, bytes: Buffer) => MultipartCase;

/** Framing-level mutations: boundaries, part headers, line endings, truncation, stray bytes. */
const MUTATIONS: Record<string, Mutation> = {
  'no boundary parameter': (c) => ({ ...c, contentType: 'multipart/form-data' }),
  'other boundary': (c) => ({ ...c, contentType: 'multipart/form-data; boundary=not-the-one' }),
  'empty boundary': (c) => ({ ...c, contentType: 'multipart/form-data; boundary=' }),
  'quoted boundary': (c) => ({ ...c, contentType: c.contentType.replace(/boundary=(.*)$/, 'boundary="$1"') }),
  'no closing delimiter': (c) => ({ ...c, body: c.body.subarray(0, Math.max(0, c.body.lastIndexOf('--fuzzb--'))) }),
  truncated: (c, at) => ({ ...c, body: c.body.subarray(0, Math.floor(c.body.length * at)) }),
  'LF line endings': (c) => ({ ...c, body: Buffer.from(c.body.toString('latin1').replaceAll('\r\n', '\n'), 'latin1') }),
  'stray bytes': (c, at, bytes) => {
    const cut = Math.floor(c.body.length * at);
    return { ...c, body: Buffer.concat([c.body.subarray(0, cut), bytes, c.body.subarray(cut)]) };
  },
  preamble: (c, _at, bytes) => ({ ...c, body: Buffer.concat([bytes, Buffer.from('\r\n'), c.body]) }),
  epilogue: (c, _at, bytes) => ({ ...c, body: Buffer.concat([c.body, bytes]) }),
  'part without Content-Disposition': (c) => ({ ...c, body: Buffer.from(c.body.toString('latin1').replace(/Content-Disposition: [^\r]*\r\n/, ''), 'latin1') }),
  'huge part header': (c) => ({
    ...c,
    body: Buffer.from(c.body.toString('latin1').replace('Content-Disposition:', `X-Pad: ${'p'.repeat(20_000)}\r\nContent-Disposition:`), 'latin1'),
  }),
  'many fields': (c) => ({
    ...c,
    body: Buffer.concat([
      Buffer.from(Array.from({ length: 300 }, (_, i) => `--fuzzb\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('')),
      c.body,
    ]),
  }),
  'not multipart': (c) => ({ ...c, contentType: 'multipart/mixed; boundary=fuzzb' }),
};

/**
 * Upload bodies: well-formed ones (a name field, a file) most of the time so the success path runs,
 * mutated at the framing level otherwise, with any parts in any order.
 */
export const multipartCase: fc.Arbitrary<MultipartCase> = fc
  .record({
    parts: fc.oneof({ weight: 2, arbitrary: fc.tuple(part).map(([p]) => [p]) }, { weight: 2, arbitrary: fc.array(part, { minLength: 0, maxLength: 4 }) }),
    withFile: fc.boolean(),
    mutations: fc.array(fc.tuple(fc.constantFrom(...Object.keys(MUTATIONS)), fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ maxLength: 64 })), {
      maxLength: 2,
    }),
  })
  .map(({ parts, withFile, mutations }) => {
    const all: Part[] = withFile
      ? [...parts, { kind: 'file', name: 'file', filename: 'fuzz.png', filenameStar: undefined, type: 'image/png', data: png() }]
      : parts;
    let c: MultipartCase = { contentType: 'multipart/form-data; boundary=fuzzb', body: serialize(all, 'fuzzb'), mutations: [] };
    for (const [name, at, bytes] of mutations) c = { ...MUTATIONS[name]!(c, at, Buffer.from(bytes)), mutations: [...c.mutations, name] };
    return c;
  });

/** One request of a raw-socket sequence, as bytes. */
export interface RawCase {
  bytes: Buffer;
  method: string;
  /** What it is, for failure messages. */
  label: string;
  /** A request cut short on purpose: only ever last, and the client then closes its side. */
  truncated: boolean;
  /** Not valid HTTP: the server may answer it and close, or close after an early answer to it. */
  malformed?: boolean;
}

const req = (head: string, body: Buffer | string = '') => Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);

/** Raw requests: valid ones of every kind the API serves, and HTTP framing errors. */
export function rawCase(key: string): fc.Arbitrary<RawCase> {
  const auth = `Authorization: Bearer ${key}\r\n`;
  const json = (path: string, body: string, method = 'POST') =>
    req(`${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`, body);
  const valid: fc.Arbitrary<RawCase> = fc.oneof(
    fc.constant({ bytes: req('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'), method: 'GET', label: 'GET /health', truncated: false }),
    fc.constant({ bytes: req('HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n'), method: 'HEAD', label: 'HEAD /health', truncated: false }),
    fc.constant({ bytes: req(`GET /api/v1/estate?limit=2 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`), method: 'GET', label: 'GET estates', truncated: false }),
    fc.constant({ bytes: req('GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n'), method: 'GET', label: 'GET 404', truncated: false }),
    fullUnicodeString(30).map((name) => ({ bytes: json('/api/v1/estate', JSON.stringify({ name })), method: 'POST', label: 'POST estate', truncated: false })),
    fc
      .constantFrom('{"name":', '[]', '', '{"name":"\\ud800"}')
      .map((b) => ({ bytes: json('/api/v1/estate', b), method: 'POST', label: `POST estate ${b}`, truncated: false })),
    multipartCase.map((m) => ({
      bytes: req(`POST /api/v1/asset/upload HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: ${m.contentType}\r\nContent-Length: ${m.body.length}\r\n\r\n`, m.body),
      method: 'POST',
      label: `upload [${m.mutations.join(', ')}]`,
      truncated: false,
    })),
    multipartCase.map((m) => {
      // The same upload sent chunked, in pieces.
      const chunks = [m.body.subarray(0, m.body.length >> 1), m.body.subarray(m.body.length >> 1)].filter((c) => c.length > 0);
      const body = Buffer.concat([...chunks.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
      return {
        bytes: req(`POST /api/v1/asset/upload HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: ${m.contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`, body),
        method: 'POST',
        label: `chunked upload [${m.mutations.join(', ')}]`,
        truncated: false,
      };
    }),
    fc.constant({ bytes: req('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), method: 'GET', label: 'Connection: close', truncated: false }),
    fc.constant({ bytes: req('GET /health HTTP/1.0\r\n\r\n'), method: 'GET', label: 'HTTP/1.0', truncated: false }),
    fc.constant({
      bytes: req(
        `POST /api/v1/estate HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 12\r\n\r\n`,
        '{"name":"E"}',
      ),
      method: 'POST',
      label: 'Expect: 100-continue',
      truncated: false,
    }),
  );
  const framingError: fc.Arbitrary<RawCase> = fc
    .constantFrom(
      ['bad Content-Length', req('POST /api/v1/estate HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}')],
      ['two Content-Lengths', req('POST /api/v1/estate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}')],
      [
        'Content-Length and chunked',
        req('POST /api/v1/estate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'),
      ],
      ['bad chunk size', req('POST /api/v1/estate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n')],
      ['header without colon', req('GET /health HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n')],
      ['folded header', req('GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\n\r\n')],
      ['garbage request line', req('\u0001\u0002 nonsense\r\n\r\n')],
      ['NUL in a header', req('GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n')],
      ['space before colon', req('GET /health HTTP/1.1\r\nHost : x\r\n\r\n')],
      ['header too large', req(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`)],
      ['bare LF', req('GET /health HTTP/1.1\nHost: x\n\n')],
      ['HTTP/2 preface', req('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')],
    )
    .map(([label, bytes]) => ({ bytes, method: 'GET', label, truncated: false, malformed: true }));
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: framingError });
}

/** A request whose declared body never fully arrives (the client then closes): only ever last. */
export function truncatedCase(key: string): fc.Arbitrary<RawCase> {
  return multipartCase.chain((m) =>
    fc.integer({ min: 0, max: Math.max(0, m.body.length - 1) }).map((cut) => ({
      bytes: req(
        `POST /api/v1/asset/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${m.contentType}\r\nContent-Length: ${m.body.length}\r\n\r\n`,
        m.body.subarray(0, cut),
      ),
      method: 'POST',
      label: `upload cut at ${cut}/${m.body.length}`,
      truncated: true,
    })),
  );
}
