import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { unprocessable } from '../../errors.js';
import { ALWAYS_DENIED, addressRefusal } from '../assets/address-policy.js';
import { checkedLookup } from '../assets/fetch-remote.js';

/** What a receiver may answer that is read at all; the rest is discarded unread. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const RESOLVE_TIMEOUT_MS = 3_000;

/**
 * The URL rules of an endpoint, the same as for `POST /api/v1/asset`: http or https, no credentials,
 * no private, loopback, link-local or metadata address (unless ALLOW_PRIVATE_URLS), checked here
 * for a literal address and for what a name resolves to now, and again on every delivery's socket.
 */
export async function checkEndpointUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unprocessable('Validation failed: url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw unprocessable(`Validation failed: url must use http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password) throw unprocessable('Validation failed: url must not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = addressRefusal(host, allowPrivate);
  if (literal) throw unprocessable(`Validation failed: url points at ${literal}`);
  // A name that does not resolve (yet) is accepted: every delivery resolves and checks again.
  const resolved = await Promise.race([
    dns.lookup(host, { all: true }).catch(() => []),
    new Promise<[]>((resolve) => setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS).unref()),
  ]);
  for (const { address } of resolved) {
    const refusal = addressRefusal(address, allowPrivate);
    if (refusal) throw unprocessable(`Validation failed: url resolves to ${refusal}`);
  }
  return url.toString();
}

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  /** Why the attempt failed (null on a 2xx). */
  error: string | null;
  durationMs: number;
}

/**
 * One POST of a signed body. Redirects are not followed (a 3xx is a failure), the whole exchange up to
 * the status line must finish within `timeoutMs`, and at most 64 KB of the answer is read.
 */
export function postWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let done = false;
    const finish = (status: number | null, error: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status, error, durationMs: elapsed() });
    };
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return finish(null, 'the endpoint URL is invalid');
    }
    const literal = addressRefusal(url.hostname.replace(/^\[|\]$/g, ''), options.allowPrivate);
    if (literal) return finish(null, `the endpoint URL points at ${literal}`);
    const agentOptions = { allowPrivateIPAddress: options.allowPrivate, denyIPAddressList: ALWAYS_DENIED, keepAlive: false };
    const isHttps = url.protocol === 'https:';
    const agent = isHttps ? new RequestFilteringHttpsAgent(agentOptions) : new RequestFilteringHttpAgent(agentOptions);
    const req = (isHttps ? https : http).request(url, {
      method: 'POST',
      agent,
      lookup: checkedLookup({ allowPrivate: options.allowPrivate }),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'estate-publisher-webhooks/1',
      },
    });
    const timer = setTimeout(() => {
      finish(null, `no answer within ${options.timeoutMs} ms`);
      req.destroy();
    }, options.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) res.destroy();
      });
      res.on('error', () => undefined);
      if (status >= 200 && status < 300) finish(status, null);
      else if (status >= 300 && status < 400) finish(status, `the endpoint answered ${status} (redirects are not followed)`);
      else finish(status, `the endpoint answered ${status}`);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const refused = /is not allowed/.test(err.message) || (err as { refusal?: string }).refusal;
      finish(null, refused ? 'the endpoint resolves to an address that is not allowed' : `the request failed: ${err.code ?? err.message}`);
    });
    req.end(body);
  });
}
