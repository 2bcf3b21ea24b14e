import {
  CamelCasePlugin,
  type ColumnType,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Insertable,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type RawBuilder,
  type Updateable,
  sql,
} from 'kysely';
import type { Queryable } from './client.js';
import type { DB } from './schema.js';

/**
 * Typed queries (Kysely) over the project's own connections: a query built with `q(db)` runs through
 * `Queryable.query`, so it joins whatever transaction `db` is and costs the same one round trip as the
 * hand-written SQL it replaces. Column and table names are checked against `DB`, which
 * `npm run db:types` generates from the migrated schema (migrations stay the only schema definition).
 */

const DIGIT_BEFORE_LETTER = /([a-z])(\d+[a-z])/g;

/**
 * camelCase in TypeScript, snake_case in SQL. Kysely's default mapper turns `floorPlan3dPreviewUrls`
 * into `floor_plan3d_preview_urls`; ours puts the underscore before a digit run that starts a word
 * (`3d`), and none before a trailing one (`sha256`). A test checks the round trip for every column.
 */
export class ColumnCasePlugin extends CamelCasePlugin {
  constructor() {
    // Nested keys are data (apartmentData, panorama metadata): they are never renamed.
    super({ maintainNestedObjectKeys: true });
  }

  protected override snakeCase(str: string): string {
    return super.snakeCase(str).replace(DIGIT_BEFORE_LETTER, '$1_$2');
  }

  column(property: string): string {
    return this.snakeCase(property);
  }

  property(column: string): string {
    return this.camelCase(column);
  }
}

class QueryableConnection implements DatabaseConnection {
  constructor(private readonly db: Queryable) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: await this.db.query<R>(compiled.sql, compiled.parameters) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered; the method only refuses.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported over Queryable');
  }
}

const refuseTransaction = async () => {
  throw new Error('Open transactions with Database.transaction, then build queries with q(tx)');
};

class QueryableDriver implements Driver {
  private readonly connection: QueryableConnection;
  constructor(db: Queryable) {
    this.connection = new QueryableConnection(db);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  beginTransaction = refuseTransaction;
  commitTransaction = refuseTransaction;
  rollbackTransaction = refuseTransaction;
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

const plugin = new ColumnCasePlugin();
const builders = new WeakMap<Queryable, Kysely<DB>>();

/** A Kysely builder whose queries run on `db` (the database, or an open transaction). */
export function q(db: Queryable): Kysely<DB> {
  let builder = builders.get(db);
  if (!builder) {
    builder = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new QueryableDriver(db),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      plugins: [plugin],
    });
    builders.set(db, builder);
  }
  return builder;
}

declare const jsonbBrand: unique symbol;
/** A value written to a jsonb column: JSON text cast to jsonb (node-postgres would send a JS array as a PostgreSQL array). */
export type JsonbParam<T> = RawBuilder<T> & { readonly [jsonbBrand]: T };
/** A jsonb column holding T: read as T, written only through `json(value)`. */
export type Jsonb<T> = ColumnType<T, JsonbParam<T>, JsonbParam<T>>;

export const json = <T>(value: T): JsonbParam<T> => sql<T>`CAST(${JSON.stringify(value)} AS jsonb)` as JsonbParam<T>;

type Unjsonb<V> = V extends JsonbParam<infer X> ? X : V;
/** What an INSERT into T takes, with jsonb columns as their plain values. */
export type PlainInsert<T> = { [K in keyof Insertable<T>]: Unjsonb<Insertable<T>[K]> };
/** What an UPDATE of T takes, with jsonb columns as their plain values. */
export type PlainUpdate<T> = { [K in keyof Updateable<T>]: Unjsonb<Updateable<T>[K]> };

function encode(values: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) out[key] = value !== null && typeof value === 'object' ? json(value) : value;
  }
  return out;
}

/*
 * Values for INSERT and UPDATE with every object or array sent through `json()`. Only for tables whose
 * array and object columns are all jsonb: a native text[] or uuid[] column takes the plain array, so
 * such tables write their values directly. Column names stay checked against the table's type.
 */
export const insertValues = <T>(values: PlainInsert<T>): Insertable<T> => encode(values) as Insertable<T>;
export const updateValues = <T>(values: PlainUpdate<T>): Updateable<T> => encode(values) as Updateable<T>;

/** snake_case column name of a camelCase property, as the queries write it. */
export const columnName = (property: string): string => plugin.column(property);
/** camelCase property of a snake_case column, as result rows carry it. */
export const propertyName = (column: string): string => plugin.property(column);

/**
 * `= ANY(uuid[])`: a list of ids as one parameter, so 5,000 ids are one bound value rather than 5,000
 * (`IN (…)` stops at PostgreSQL's 65,535 parameters) and the statement text stays the same.
 */
export const anyUuid = (ids: readonly string[]) => sql<string>`ANY(CAST(${ids} AS uuid[]))`;
