import type { FastifyRequest } from 'fastify';

/** The urlencoded body of a dashboard form (an empty one when the post carried none). */
export const formOf = (request: FastifyRequest): URLSearchParams => (request.body instanceof URLSearchParams ? request.body : new URLSearchParams());

/** One field's text, at most `max` characters. */
export const text = (form: URLSearchParams, name: string, max = 20_000): string => (form.get(name) ?? '').slice(0, max);
