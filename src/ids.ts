import { v7 } from 'uuid';

/** New identifiers are time-ordered UUIDv7, so "newest first" can also sort by id. */
export const newId = (): string => v7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids a client sends may be any text; only a UUID can name a stored row. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export const iso = (d: Date | string | null | undefined): string | null =>
  d === null || d === undefined ? null : (d instanceof Date ? d : new Date(d)).toISOString();
