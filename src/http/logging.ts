import type { Config } from '../config.js';

/** Header and property names whose values are credentials wherever they appear in a log object. */
const SECRET_KEYS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;
const CENSOR = '[redacted]';
const MAX_DEPTH = 8;

type Redactor = (value: string) => string;

/**
 * Pino options with credentials redacted from every log line, at every level, for every logger:
 * the `logMethod` hook runs before any line is written and is inherited by every child logger
 * (Fastify's request loggers, and the loggers plugins and dependencies are handed), so a plugin
 * that logs request headers at trace level (@fastify/multipart's "Providing options to busboy")
 * cannot leak a key. A fixed list of redact paths cannot do that: it only knows the paths it names.
 *
 * What is redacted: values under authorization/cookie-like keys at any depth of plain objects and
 * arrays; in any string (messages too), `Bearer <token>`, anything shaped like an API key
 * (`epk_…`) and the operator token itself.
 */
export function redactingLoggerOptions(config: Readonly<Pick<Config, 'adminToken'>>, options: Record<string, unknown>): Record<string, unknown> {
  const adminToken = config.adminToken;
  const redactString: Redactor = (value) => {
    let out = value.replace(/\bBearer\s+[^\s"',;]+/gi, `Bearer ${CENSOR}`).replace(/\bepk_[A-Za-z0-9_-]+/g, CENSOR);
    if (adminToken && out.includes(adminToken)) out = out.replaceAll(adminToken, CENSOR);
    return out;
  };
  const given = options.hooks as { logMethod?: (this: unknown, args: unknown[], method: (...a: unknown[]) => void, level: number) => void } | undefined;
  const serializers = (options.serializers ?? {}) as Record<string, (v: unknown) => unknown>;
  return {
    ...options,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: CENSOR },
    serializers: {
      ...serializers,
      // Fastify's request serializer with the URL redacted (a key pasted into a query string).
      req: (req: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactString(req.url) : req.url,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    hooks: {
      ...given,
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void, level: number) {
        const redacted = args.map((arg) => redactValue(arg, redactString, 0));
        if (given?.logMethod) return given.logMethod.call(this, redacted, method, level);
        return method.apply(this, redacted);
      },
    },
  };
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** A copy of value with credentials replaced; objects that are not plain (a request, a socket) are left to the serializers. */
export function redactValue(value: unknown, redactString: Redactor, depth: number): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redactString, depth + 1));
  if (value instanceof Error) return redactError(value, redactString, depth);
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) && v !== undefined ? CENSOR : redactValue(v, redactString, depth + 1);
  return out;
}

/** An error whose message, stack or own fields carry a credential becomes a copy without it. */
function redactError(err: Error, redactString: Redactor, depth: number): Error {
  const fields = { ...err } as Record<string, unknown>;
  const redactedFields = redactValue(fields, redactString, depth + 1) as Record<string, unknown>;
  const message = redactString(err.message);
  const stack = err.stack === undefined ? undefined : redactString(err.stack);
  const changed = message !== err.message || stack !== err.stack || safeJson(redactedFields) !== safeJson(fields);
  if (!changed) return err;
  const copy = Object.assign(new Error(message), redactedFields);
  copy.name = err.name;
  if (stack !== undefined) copy.stack = stack;
  return copy;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
