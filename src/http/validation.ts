import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { SINGLE_LINE, SINGLE_LINE_NAME } from './schemas.js';

// Bodies are validated as sent: no type coercion (a number is not a string), no defaults filled
// in (a PATCH changes only what it names) and unknown fields are errors, not silently dropped.
// Query strings and path parameters arrive as text, so those are coerced.
const ajvOptions = { allErrors: true, strict: false, useDefaults: false, removeAdditional: false } as const;
const bodyAjv = addFormats.default(new Ajv.default({ ...ajvOptions, coerceTypes: false }));
const queryAjv = addFormats.default(new Ajv.default({ ...ajvOptions, coerceTypes: true, useDefaults: true }));
for (const ajv of [bodyAjv, queryAjv]) {
  ajv.addKeyword({ keyword: 'x-ignored' });
  // Documentation only (a oneOf of required lists in the OpenAPI document); the service enforces it with a clearer 422.
  ajv.addKeyword({ keyword: 'x-exactly-one' });
  ajv.addKeyword({ keyword: 'x-format' });
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * RFC 3339 date-time that both PostgreSQL and JavaScript can hold: ajv-formats alone accepts year 0000,
 * leap seconds and offsets up to 23:59, which PostgreSQL refuses or rolls into year 10000 (a 5xx).
 * Years 1000-9999, real calendar days, seconds 00-59, offsets up to 14:59 (the widest in use is 14:00).
 */
export function isStorableDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (day > daysInMonth) return false;
  if (m[7] !== undefined && (Number(m[7]) > 14 || Number(m[8]) > 59)) return false;
  const instant = Date.parse(value.replace(' ', 'T'));
  // The offset can push an edge value out of range (9999-12-31T23:59:59-14:00 is year 10000 in UTC).
  return instant >= MIN_INSTANT && instant <= MAX_INSTANT;
}

// PGlite reads timestamps back through the legacy Date parser, which turns year 0001 into 2001; no
// real-estate date is that old, so the floor is year 1000.
const MIN_INSTANT = Date.parse('1000-01-01T00:00:00Z');
const MAX_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

const MAX_LISTED = 20;

function fieldName(err: ErrorObject): string {
  const base = err.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
  const child =
    err.keyword === 'required'
      ? (err.params as { missingProperty: string }).missingProperty
      : err.keyword === 'additionalProperties'
        ? (err.params as { additionalProperty: string }).additionalProperty
        : undefined;
  if (child === undefined) return base;
  return base ? `${base}.${child}` : child;
}

const MEMBER_LIST = /^\^\(([\w|]+)\)\(,\(\1\)\)\*\$$/;

function describe(err: ErrorObject): string {
  switch (err.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed';
    case 'enum':
      return `must be one of: ${((err.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify((err.params as { allowedValue: unknown }).allowedValue)}`;
    case 'pattern': {
      const { pattern } = err.params as { pattern: string };
      if (pattern === SINGLE_LINE) return 'must be one line: no CR, LF or other control characters';
      if (pattern === SINGLE_LINE_NAME) return 'must be one line with a visible character: no CR, LF or other control characters';
      // A list of members (MemberList in schemas.ts): name them, not the pattern.
      const members = MEMBER_LIST.exec((err.params as { pattern: string }).pattern);
      return members ? `must be one of: ${members[1]!.split('|').join(', ')} (several comma-separated)` : (err.message ?? 'is invalid');
    }
    default:
      return err.message ?? 'is invalid';
  }
}

/**
 * One readable line naming every offending field: `name is required; status must be one of: …`. A field
 * that failed every branch of an anyOf (a Nullable field, say) is one part naming the branches
 * (`apartments[3].apartmentData.balcony must be number or null`), so 15 items with the same bad field
 * read as 15 parts, one per item, not every branch of each.
 */
export function formatValidationErrors(errors: ErrorObject[], part: string): string {
  const branched = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const fields = new Map<string, { alternatives: boolean; said: string[] }>();
  for (const err of errors) {
    // anyOf/oneOf repeat what their branches said; the branch errors are the useful ones.
    if (err.keyword === 'anyOf' || err.keyword === 'oneOf' || err.keyword === 'if') continue;
    const field = fieldName(err) || part;
    const entry = fields.get(field) ?? { alternatives: false, said: [] };
    fields.set(field, entry);
    if (branched.has(err.instancePath) && err.keyword !== 'required' && err.keyword !== 'additionalProperties') entry.alternatives = true;
    const said = describe(err);
    if (!entry.said.includes(said)) entry.said.push(said);
  }
  const parts = [...fields].flatMap(([field, { alternatives, said }]) =>
    alternatives && said.length > 1 ? [`${field} ${eitherOf(said)}`] : said.map((s) => `${field} ${s}`),
  );
  const shown = parts.slice(0, MAX_LISTED);
  const more = parts.length > MAX_LISTED ? `; and ${parts.length - MAX_LISTED} more` : '';
  return `Validation failed: ${shown.join('; ')}${more}`;
}

/** `must be number` and `must be null` as `must be number or null`. */
function eitherOf(said: string[]): string {
  const prefix = 'must be ';
  return said.every((s) => s.startsWith(prefix)) ? `${prefix}${said.map((s) => s.slice(prefix.length)).join(' or ')}` : said.join(' or ');
}

/**
 * Why a string cannot be stored as the client sent it, or undefined when it can. PostgreSQL text
 * holds neither NUL nor a lone UTF-16 surrogate (`"\\ud800"` is valid JSON but not Unicode): the first
 * is refused by the database, the second is refused or silently turned into U+FFFD depending on the
 * path it takes. Either way the client must hear about it, so both are refused before any write.
 */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  // Node 20 has String.prototype.isWellFormed (ES2024); the ES2022 lib of this build does not declare it.
  if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) return 'must be valid Unicode text';
  return undefined;
}

export interface UnstorableAt {
  /** Path of the field, as validation messages name it: `apartments[3].name`, `apartmentData.foo`. */
  at: string;
  problem: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** A key as a message can show it: NUL as `\\0`, a lone surrogate as `\\ud800`. */
const printableKey = (key: string) => key.replaceAll('\u0000', '\\0').replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/**
 * Finds the first string (value or object key, at any depth) that cannot be stored; returns its path
 * and the reason. Every parsed body, query and header passes through here before validation, so the
 * path is written only for the string found, on the way back (issue 14: not for every key of every
 * request).
 */
export function findUnstorableText(value: unknown): UnstorableAt | undefined {
  const found = locate(value, 0);
  return found && { at: found.at.startsWith('.') ? found.at.slice(1) : found.at, problem: found.problem };
}

/** findUnstorableText below the top: `at` is the path from `value` down, each key written `.key`. */
function locate(value: unknown, depth: number): UnstorableAt | undefined {
  if (depth > 64) return undefined;
  if (typeof value === 'string') {
    const problem = unstorableText(value);
    return problem ? { at: '', problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = locate(value[i], depth + 1);
      if (found) return { at: `[${i}]${found.at}`, problem: found.problem };
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const k of Object.keys(value)) {
      const problem = unstorableText(k);
      // A key is stored too (apartmentData is kept as sent): its path shows the offending character escaped.
      if (problem) return { at: `.${printableKey(k)}`, problem };
      const found = locate((value as Record<string, unknown>)[k], depth + 1);
      if (found) return { at: `.${printableKey(k)}${found.at}`, problem: found.problem };
    }
  }
  return undefined;
}
