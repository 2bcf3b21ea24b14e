import { Kind, type TObject, type TSchema } from '@sinclair/typebox';
import { type RawBuilder, sql } from 'kysely';
import { columnName } from './query.js';

/**
 * A response document built by the database: `row_to_json` of a row, written from the TypeBox
 * response schema, so the fields of the answer stay defined once (the schema) and a hot read sends the
 * text PostgreSQL produced without turning every row into JS objects and back (issue 14). It gives the
 * answer Fastify's serializer gives for the same row: the schema's properties only, timestamps as ISO
 * 8601 UTC with milliseconds, and arrays of objects rebuilt item by item (a key an item lacks is null).
 * test/integration/json-sql.test.ts compares the two for every field on both engines.
 */

/** The schema under a Nullable(...) union, or the schema itself. */
function nonNull(schema: TSchema): TSchema {
  if (schema.anyOf) {
    const rest = (schema.anyOf as TSchema[]).filter((s) => s[Kind] !== 'Null');
    if (rest.length === 1) return rest[0]!;
  }
  return schema;
}

const isDateTime = (schema: TSchema) => schema.type === 'string' && schema.format === 'date-time';

/** `to_char` of a timestamptz as `Date#toISOString` writes it (UTC, milliseconds, `Z`). */
export const isoText = (ref: RawBuilder<unknown>) => sql`to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function arrayOfObjects(column: RawBuilder<unknown>, items: TObject): RawBuilder<unknown> {
  const element = sql.ref('e.value');
  const rebuilt = objectOf(items, (key) => sql`${element}->${sql.lit(key)}`);
  // Most such arrays are empty: answering those needs no subquery.
  return sql`CASE WHEN jsonb_array_length(${column}) = 0 THEN '[]'::json ELSE (SELECT json_agg(${rebuilt} ORDER BY e.ordinality) FROM jsonb_array_elements(${column}) WITH ORDINALITY AS e) END`;
}

/** `json_build_object` of a jsonb array item's keys (items are few; most arrays are empty). */
function objectOf(schema: TObject, value: (key: string) => RawBuilder<unknown>): RawBuilder<unknown> {
  const pairs = Object.keys(schema.properties).map((key) => sql`${sql.lit(key)}, ${value(key)}`);
  return sql`json_build_object(${sql.join(pairs)})`;
}

/** A property's name as a quoted column alias (not renamed by the snake_case plugin, unlike sql.id). */
const alias = (key: string) => sql.raw(`"${key.replaceAll('"', '""')}"`);

/**
 * The JSON object of the row `table` with the properties of `schema`, as a scalar subquery:
 * `row_to_json` of one row whose columns are named as the properties (PostgreSQL's fast path for
 * composite values; `json_build_object` with 30 pairs costs about twice as much). `embedded` gives
 * the SQL of properties that are not columns of the row (an embedded building); every other property
 * is the column of the same name.
 */
export function rowJson(schema: TObject, table: string, embedded: Record<string, RawBuilder<unknown>> = {}): RawBuilder<unknown> {
  const columns = Object.entries(schema.properties).map(([key, propertySchema]) => {
    const given = embedded[key];
    if (given) return sql`${given} AS ${alias(key)}`;
    const column = sql.ref(`${table}.${columnName(key)}`);
    const s = nonNull(propertySchema);
    if (isDateTime(s)) return sql`${isoText(column)} AS ${alias(key)}`;
    if (s.type === 'array' && (s.items as TSchema | undefined)?.type === 'object' && (s.items as TObject).properties) {
      return sql`${arrayOfObjects(column, s.items as TObject)} AS ${alias(key)}`;
    }
    return sql`${column} AS ${alias(key)}`;
  });
  return sql`(SELECT row_to_json(r) FROM (SELECT ${sql.join(columns)}) AS r)`;
}
