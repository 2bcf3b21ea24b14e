import type { FastifyRequest } from 'fastify';
import { mapDatabaseError } from '../../../db/errors.js';
import { AppError } from '../../../errors.js';

/** The urlencoded body of a dashboard form (an empty one when the post carried none). */
export const formOf = (request: FastifyRequest): URLSearchParams => (request.body instanceof URLSearchParams ? request.body : new URLSearchParams());

/** One field's text, at most `max` characters. */
export const text = (form: URLSearchParams, name: string, max = 20_000): string => (form.get(name) ?? '').slice(0, max);

/** A service's refusal as an AppError, whether thrown as one or as the database's (a unique index: 409). */
export const refusal = (err: unknown): AppError | undefined => (err instanceof AppError ? err : mapDatabaseError(err));

/** A service message without the API's `Validation failed: ` prefix, starting with a capital. */
export const plain = (message: string): string => {
  const rest = message.replace(/^Validation failed:\s*/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
};
