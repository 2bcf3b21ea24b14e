import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { mapDatabaseError } from '../db/errors.js';
import { AppError, type Dependency, errorBody, notFound } from '../errors.js';
import { connectionView } from './connection-state.js';
import { OutageLog } from './outages.js';
import { formatValidationErrors } from './validation.js';

/** Fastify's own error codes for a request it cannot read: all are the client's fault. */
const BAD_REQUEST_CODES = new Set([
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_EMPTY_TYPE',
  'FST_ERR_CTP_INVALID_TYPE',
  'FST_ERR_INVALID_URL',
  'FST_ERR_BAD_URL',
  'FST_ERR_ASYNC_CONSTRAINT',
]);

/**
 * A path id that fails its schema (e.g. longer than any id) names nothing that exists: 404 with the
 * message a missing row gets, the resource named after the path segment before the parameter.
 */
function paramNotFound(err: FastifyError, request: FastifyRequest): AppError {
  const first = err.validation?.[0];
  const param = first?.instancePath.replace(/^\//, '') ?? '';
  const segments = (request.routeOptions.url ?? '').split('/');
  const at = segments.indexOf(`:${param}`);
  const noun = at > 0 && !segments[at - 1]!.startsWith(':') ? segments[at - 1]! : 'resource';
  const singular = noun.replace(/-/g, ' ').replace(/([^s])s$/, '$1');
  const value = String((request.params as Record<string, unknown> | undefined)?.[param] ?? '');
  return notFound(singular.charAt(0).toUpperCase() + singular.slice(1), value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

function toAppError(err: FastifyError, request: FastifyRequest): AppError | { statusCode: number; message: string } {
  if (err instanceof AppError) return err;
  if (err.validation) {
    const part = err.validationContext ?? 'body';
    if (part === 'params') return paramNotFound(err, request);
    if (part === 'body') {
      const rootTypeError = err.validation.find((v) => v.instancePath === '' && v.keyword === 'type');
      if (rootTypeError) {
        const wanted = (rootTypeError.params as { type?: unknown } | undefined)?.type === 'array' ? 'array' : 'object';
        return new AppError('badRequest', `The request body must be a JSON ${wanted}`);
      }
      return new AppError('unprocessable', formatValidationErrors(err.validation as never, part));
    }
    // A query parameter or header not of its type: the request cannot be read (400).
    return new AppError('badRequest', formatValidationErrors(err.validation as never, part));
  }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError('payloadTooLarge', 'The request body is too large');
  if (err.code && BAD_REQUEST_CODES.has(err.code)) {
    const message = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'Unsupported Content-Type; send application/json' : err.message;
    return new AppError('badRequest', message);
  }
  if (err instanceof SyntaxError || (err as { name?: string }).name === 'SyntaxError') {
    return new AppError('badRequest', 'The request body is not valid JSON');
  }
  const fromDb = mapDatabaseError(err);
  if (fromDb) return fromDb;
  const status = err.statusCode;
  if (status && status >= 400 && status < 500) return { statusCode: status, message: err.message };
  return { statusCode: 500, message: 'An unexpected error occurred' };
}

export function installErrorHandlers(app: FastifyInstance): void {
  const outages = new OutageLog(app.log);
  app.addHook('onClose', async () => outages.flush());
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const mapped = toAppError(err, request);
    const statusCode = mapped.statusCode;
    // Fastify closes the connection after a body it could not parse, in case more of it follows. Once
    // the body has been read whole nothing follows, and Node may already be running requests pipelined
    // behind this one: closing would drop their answers although their work is done (an upload stored
    // that its client never hears of). A body still arriving keeps the close.
    if (request.raw.complete && statusCode < 500 && String(reply.getHeader('connection')).toLowerCase() === 'close') reply.removeHeader('connection');
    if (mapped instanceof AppError && mapped.dependency) outages.refused(mapped as AppError & { dependency: Dependency }, request);
    else if (statusCode >= 500) request.log.error({ err }, 'request failed');
    else request.log.debug({ err: { message: err.message, code: err.code } }, 'request rejected');
    let retry: number | undefined;
    if (statusCode === 429 || statusCode === 503) {
      retry = (mapped as { retryAfterSeconds?: number }).retryAfterSeconds ?? (statusCode === 503 ? 5 : undefined);
      if (retry !== undefined && !reply.hasHeader('retry-after')) reply.header('retry-after', String(retry));
    }
    const html = request.routeOptions.config?.htmlError;
    if (html) {
      const page = html({ statusCode, retryAfterSeconds: retry }, request);
      return reply.code(statusCode).headers(page.headers).type('text/html; charset=utf-8').send(page.body);
    }
    return reply.code(statusCode).type('application/json; charset=utf-8').send(errorBody(statusCode, mapped.message));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}

/**
 * Bytes Node's HTTP parser cannot read as a request (bad framing, a header too large, a body cut by
 * the client closing its side, a request timeout). Exactly one answer per request, in order, then the close:
 * - an error in the body of the request being read belongs to that request: it gets this answer
 *   unless its own answer has started (or it was answered early, before its body ended);
 * - either way the answers to the requests before it go out first, so a pipelining client can tell
 *   which request each answer is for;
 * - the answer is in the spec's error shape and says `Connection: close`: the connection ends here and
 *   requests pipelined after it were never read;
 * - bytes after a request that itself said `Connection: close` (HPE_CLOSED_CONNECTION) are left
 *   alone: Node closes the connection once that request is answered, and the answer says so.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || err.code === 'HPE_CLOSED_CONNECTION' || socket.destroyed) return;
  const view = connectionView(socket);
  const settle = (answered: boolean) => {
    if (socket.destroyed) return;
    if (socket.writable && !answered) {
      const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const message =
        status === 408 ? 'The request took too long to arrive' : status === 431 ? 'The request headers are too large' : 'The request is not valid HTTP';
      const body = JSON.stringify(errorBody(status, message));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
  const errorOfLast = view.lastIncomplete;
  view.whenEarlierAnswered(() => settle(errorOfLast ? connectionView(socket).lastAnswered : false));
}
