import { Kind, type TObject, type TSchema } from '@sinclair/typebox';
import { type RawBuilder, sql } from 'kysely';
import { columnName } from './query.js';

/**
 * A response document built by the database: `row_to_json` of a row, written from the TypeBox
 * response schema, so the fields of the answer stay defined once (the schema) and a hot read sends the
 * text PostgreSQL produced without turning every row into JS objects and back (issue 14). It gives the
 * answer Fastify's serializer gives for the same row: the schema's properties only, timestamps as ISO
 * 8601 UTC with milliseconds, arrays of objects rebuilt item by item (a key an item lacks is null), jsonb
 * objects rebuilt in the schema's key order, all of it compact: the same bytes (issue 38).
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
  // Most such arrays are empty: answering those needs no subquery. Joined by string_agg, not json_agg,
  // which writes ", " between items: the answer is compact, as Fastify's serializer writes it (issue 38).
  return sql`CASE WHEN jsonb_array_length(${column}) = 0 THEN '[]'::json ELSE (SELECT ('[' || string_agg(${rebuilt}::text, ',' ORDER BY e.ordinality) || ']')::json FROM jsonb_array_elements(${column}) WITH ORDINALITY AS e) END`;
}

/**
 * The object of a jsonb value's keys in the schema's order, compact: `row_to_json` of one row (not
 * `json_build_object`, which writes `"key" : value`). Items are few; most arrays are empty.
 */
function objectOf(schema: TObject, value: (key: string) => RawBuilder<unknown>): RawBuilder<unknown> {
  const columns = Object.keys(schema.properties).map((key) => sql`${value(key)} AS ${alias(key)}`);
  return sql`(SELECT row_to_json(o) FROM (SELECT ${sql.join(columns)}) AS o)`;
}

const isNullable = (schema: TSchema) => nonNull(schema) !== schema;

/** A jsonb array column (every array property is one), compact: jsonb's text writes `["a", "b"]`. */
function arrayColumn(column: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`CASE WHEN jsonb_array_length(${column}) = 0 THEN '[]'::json ELSE json_strip_nulls(${column}::json) END`;
}

/**
 * A jsonb object column as the serializer writes it: the schema's properties in its order, a key the
 * value lacks left out (not null), compact. jsonb's own text orders keys by length and writes `": "`
 * and `", "` (`{"area": 54.5, "rooms": 3}`); json_strip_nulls writes its result compact, nested arrays
 * included. Only for objects without nullable properties, whose nulls are always absent keys.
 */
function objectColumn(column: RawBuilder<unknown>, schema: TObject): RawBuilder<unknown> {
  return sql`json_strip_nulls(${objectOf(schema, (key) => sql`${column}->${sql.lit(key)}`)})`;
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
    if (s.type === 'array') return sql`${arrayColumn(column)} AS ${alias(key)}`;
    if (s.type === 'object' && s.properties && s === propertySchema && !Object.values(s.properties as Record<string, TSchema>).some(isNullable)) {
      return sql`${objectColumn(column, s as TObject)} AS ${alias(key)}`;
    }
    return sql`${column} AS ${alias(key)}`;
  });
  return sql`(SELECT row_to_json(r) FROM (SELECT ${sql.join(columns)}) AS r)`;
}
