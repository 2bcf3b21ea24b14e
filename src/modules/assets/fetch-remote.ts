import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { Readable } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppError, badRequest, unprocessable } from '../../errors.js';
import { ALWAYS_DENIED, addressRefusal } from './address-policy.js';

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

/** Refuses a literal IP host by address before anything is sent; hostnames are checked at connect time. */
function checkLiteralAddress(hostname: string, allowPrivate: boolean, allowAddresses: string[]): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (allowAddresses.includes(host)) return;
  const refusal = addressRefusal(host, allowPrivate);
  if (refusal) throw unprocessable(`src points at ${refusal}`);
}

/**
 * A DNS lookup that applies addressRefusal to every address a name resolves to, inside the lookup the
 * socket itself uses (no rebinding window). request-filtering-agent runs its own range check after it;
 * this one adds what that check lacks: IPv4 addresses embedded in IPv6 forms, metadata through them.
 */
export function checkedLookup(options: Pick<RemoteFetchOptions, 'allowPrivate' | 'allowAddresses'>): net.LookupFunction {
  const allowList = options.allowAddresses ?? [];
  return ((hostname: string, lookupOptions: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err);
      for (const { address } of addresses) {
        const refusal = allowList.includes(address) ? undefined : addressRefusal(address, options.allowPrivate);
        if (refusal) return callback(Object.assign(new Error(`DNS lookup ${address}(host:${hostname}) is not allowed`), { refusal }));
      }
      if (lookupOptions.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }));
      return callback(null, first.address, first.family);
    });
  }) as net.LookupFunction;
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
  return checkUrl(url, 'src');
}

/** The rules a URL must meet to be fetched, for src and for every redirect alike (`what` names which). */
function checkUrl(url: URL, what: 'src' | 'src redirects to a URL that'): URL {
  const scheme = url.protocol.replace(/:$/, '');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw unprocessable(what === 'src' ? `src must use http or https, not ${scheme}` : `src redirects to a ${scheme} URL; only http and https are allowed`);
  }
  if (url.username || url.password) throw unprocessable(`${what} must not contain credentials`);
  return url;
}

/** Errors from the filtering agent carry this wording; they mean the address was refused, not a network fault. */
const isRefusal = (err: Error) => /is not allowed/.test(err.message);

function describeFailure(err: NodeJS.ErrnoException): AppError {
  if (err instanceof AppError) return err;
  const refusal = (err as { refusal?: string }).refusal;
  if (refusal) return unprocessable(`src resolves to ${refusal}`);
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
    const req = (isHttps ? https : http).get(
      url,
      { agent, signal, lookup: checkedLookup(options), headers: { 'user-agent': 'estate-publisher-asset-fetch/1', accept: '*/*' } },
      resolve,
    );
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
        url = checkUrl(next, 'src redirects to a URL that');
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
