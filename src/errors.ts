import { STATUS_CODES } from 'node:http';

/** The kinds of failure a service may throw; the one table below maps each to its HTTP status. */
export const ERROR_STATUS = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  preconditionFailed: 412,
  payloadTooLarge: 413,
  unprocessable: 422,
  tooManyRequests: 429,
  unavailable: 503,
  insufficientStorage: 507,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;

/** A part the service depends on; a 503 or 507 names the one that failed (messages, outage log). */
export type Dependency = 'database' | 'storage' | 'redis';

export interface AppErrorOptions {
  /** The dependency whose failure this is: the request is refused because of an outage, not its content. */
  dependency?: Dependency | undefined;
  /** Retry-After of a 429 or 503 (503 defaults to 5). */
  retryAfterSeconds?: number | undefined;
  /** The underlying fault, logged once per outage (never sent). */
  cause?: unknown;
}

export class AppError extends Error {
  readonly statusCode: number;
  readonly dependency: Dependency | undefined;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[kind];
    this.dependency = options.dependency;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

const NAMES: Record<Dependency, string> = { database: 'The database', storage: 'File storage', redis: 'Redis' };

/** 503: the dependency is down or did not answer in time; the client may retry the same request. */
export const dependencyUnavailable = (dependency: Dependency, cause: unknown, detail = 'is unavailable', retryAfterSeconds?: number) =>
  new AppError('unavailable', `${NAMES[dependency]} ${detail}; retry later`, { dependency, cause, retryAfterSeconds });

/** 507: the dependency's disk is full; retrying soon will not help until an operator frees space. */
export const dependencyFull = (dependency: Dependency, cause: unknown) =>
  new AppError('insufficientStorage', `${NAMES[dependency]} is out of space; nothing was written`, { dependency, cause });

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

export function reasonPhrase(statusCode: number): string {
  if (statusCode === 422) return 'Unprocessable Entity';
  if (statusCode === 413) return 'Payload Too Large';
  return STATUS_CODES[statusCode] ?? 'Error';
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, message, error: reasonPhrase(statusCode) };
}

export const notFound = (resource: string, id: string) => new AppError('notFound', `${resource} with id ${id} not found`);
export const badRequest = (message: string) => new AppError('badRequest', message);
export const unprocessable = (message: string) => new AppError('unprocessable', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const forbidden = (message: string) => new AppError('forbidden', message);

/**
 * For `.catch(orNothing)` where "not found" is an answer: a 404 (or a 422 refusing an id) becomes
 * undefined; anything else (a database fault above all) is thrown again, never read as "not there".
 */
export function orNothing(err: unknown): undefined {
  if (err instanceof AppError && (err.kind === 'notFound' || err.kind === 'unprocessable')) return undefined;
  throw err;
}
