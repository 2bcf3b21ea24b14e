import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/** Text limits from DECISIONS: names/titles/labels/captions, plain descriptions, HTML before sanitising. */
export const LIMITS = {
  name: 200,
  description: 20_000,
  html: 100_000,
  url: 2_048,
  shortText: 200,
} as const;

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status, repeated' }),
    message: Type.String({ description: 'What went wrong; names the offending fields for 422' }),
    error: Type.String({ description: 'The HTTP reason phrase' }),
  },
  { $id: 'Error', title: 'Error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request cannot be read (malformed JSON, wrong Content-Type, bad query parameter) or an asset kind is not accepted',
  401: 'Missing or invalid API key',
  403: 'The key may not do this (read-only key, dashboard-managed field, operator endpoint)',
  404: 'Not found, or not visible to this key',
  409: 'Collides with current state (duplicate name or slug, idempotent request still running)',
  412: 'If-Match names no current ETag of the resource; nothing was changed',
  413: 'Body or upload too large',
  422: 'Validation failed; the message names every offending field',
  429: 'Rate limited; see Retry-After',
  503: 'A dependency (database, storage) is unavailable; the message names it; retry after Retry-After seconds',
  507: "The database's or file storage's disk is full; nothing was written",
};

/** The error responses a route documents, each with the one error body shape. */
export function errorResponses(...codes: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of codes) out[code] = Type.Ref(ErrorSchema, { description: ERROR_DESCRIPTIONS[code] });
  return out;
}

/** Standard error set of an organization-scoped route. */
export const partnerErrors = (...extra: number[]) => errorResponses(400, 401, 403, 404, 422, 429, ...extra);

export const IdParams = Type.Object({ id: Type.String({ maxLength: 200, description: 'Resource id (UUID)' }) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * An enumeration in a response: `{type: string, enum}`, so a generated client types it as the same
 * union a request takes and a value read can be written back. Requests keep their literal unions
 * (their validation messages name the members). The TypeScript type stays `string`: rows read from the
 * database are strings, and the wire contract is the document's, not this type.
 */
export const StringEnum = (values: readonly string[], description?: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const Name = (description = 'Name') => Type.String({ minLength: 1, maxLength: LIMITS.name, description, pattern: '\\S' });
/**
 * One line of text: no CR, LF or other control character (C0, DEL, C1, U+2028/U+2029), so a value that a
 * consumer puts into a mail header or a log line cannot start another (issue 38). The validation
 * message names it in words (src/http/validation.ts).
 */
export const SINGLE_LINE = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$';
/** SINGLE_LINE with at least one visible character (Name's rule). */
export const SINGLE_LINE_NAME = '^(?=.*\\S)[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$';
/** A name that stays one line (an inquiry's: it may become a mail header). */
export const SingleLineName = (description = 'Name') =>
  Type.String({ minLength: 1, maxLength: LIMITS.name, description: `${description}; one line, no control characters`, pattern: SINGLE_LINE_NAME });
export const Description = () => Type.String({ maxLength: LIMITS.description });
export const Url = () => Type.String({ maxLength: LIMITS.url });
export const Id = (description = 'UUID of an existing resource') => Type.String({ minLength: 1, maxLength: 200, description });
export const DateTime = () => Type.String({ format: 'date-time' });

/**
 * Server-managed fields of a resource that a client may send back unchanged (GET-modify-PATCH):
 * accepted, never validated, and ignored by the service.
 */
export function withIgnored<T extends TProperties>(properties: T, ignored: string[]): TObject<T> {
  const extra: TProperties = {};
  for (const name of ignored) {
    extra[name] = Type.Optional(Type.Unsafe({ readOnly: true, 'x-ignored': true, description: 'Server-managed; ignored when sent' }));
  }
  // The ignored fields exist only in the wire schema; handlers drop them (dropIgnored) before use.
  return Type.Object({ ...properties, ...extra }, { additionalProperties: false }) as unknown as TObject<T>;
}

/** Removes the keys withIgnored accepted, so services only see writable fields. */
export function dropIgnored<T extends object>(body: T, ignored: string[]): T {
  // Copied key by key rather than spread and deleted from: an object with deleted properties turns
  // slow for every later read of it (V8's dictionary mode).
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(body)) if (!ignored.includes(name)) copy[name] = (body as Record<string, unknown>)[name];
  return copy as T;
}

/**
 * A query value naming one member of `values` or several, comma-separated (`ACTIVE,BOOKED`). The
 * validation message lists the members (validation.ts reads this pattern's shape).
 */
export const MemberList = (values: readonly string[], description: string) =>
  Type.String({ pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`, description });

/** A query value out of a fixed set, validated as an enum (the 400 lists the members). */
export const QueryEnum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const PageQuery = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Items to skip' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Items to return' })),
};

/**
 * Sends a JSON document the database already wrote (src/db/json-sql.ts) as it is: a string or Buffer
 * body with a JSON content type skips the response serializer, whose schema the document was built from.
 */
export const sendJson = (reply: FastifyReply, body: string | Buffer) => reply.type('application/json; charset=utf-8').send(body);

/** The query of a change feed (GET /apartment/changes, GET /inquiry/changes). */
export const ChangesQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page; from the beginning when omitted' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 500, description: 'Items to return (default 500, max 5,000)' })),
  },
  { additionalProperties: false },
);

/** One page of a change feed of `item`. */
export const changesPage = (item: TSchema) =>
  Type.Object({
    items: Type.Array(Type.Ref(item), { description: 'Created or changed after the cursor, oldest change first, each once in its latest state' }),
    nextCursor: Type.String({
      description: 'Opaque; store it and send it as cursor next time. Following it never misses a change, also of writes that commit out of order.',
    }),
  });
