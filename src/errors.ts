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
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[kind];
  }
}

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
