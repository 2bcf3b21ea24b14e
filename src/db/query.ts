import {
  CamelCasePlugin,
  type ColumnType,
  type Compilable,
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
  type Selectable,
  type Updateable,
  sql,
} from 'kysely';
import { type Queryable, preparable } from './client.js';
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

/** Tables whose rows belong to one organization, are found by `id` and keep `updatedAt`. */
export type OwnedTable = {
  [T in keyof DB]: DB[T] extends { organizationId: string; id: string; updatedAt: unknown } ? T : never;
}[keyof DB];

/** A builder that sees every owned table as its common columns: the generic helpers below are written once against it. */
const owned = (db: Queryable) => q(db) as unknown as Kysely<Record<OwnedTable, { organizationId: string; id: string; updatedAt: string }>>;

/**
 * UPDATE of one row of the organization: the given values and `updatedAt`. Undefined when the
 * organization has no such row (another organization's row is never touched).
 */
export function updateOwned<T extends OwnedTable>(
  db: Queryable,
  table: T,
  organizationId: string,
  id: string,
  values: Updateable<DB[T]>,
): Promise<Selectable<DB[T]> | undefined> {
  return owned(db)
    .updateTable(table as OwnedTable)
    .set({ ...(values as object), updatedAt: sql<string>`now()` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst() as Promise<Selectable<DB[T]> | undefined>;
}

/** DELETE of one row of the organization. */
export async function deleteOwned(db: Queryable, table: OwnedTable, organizationId: string, id: string): Promise<void> {
  await owned(db).deleteFrom(table).where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

const nowhere: Queryable = { query: () => Promise.reject(new Error('a prepared query is only compiled here')) };
const SENTINEL = '\u0000prepared-parameter-';

/** A result row with the camelCase keys the plugin would give it (top level only, like the plugin). */
function camelRow<R>(row: Record<string, unknown>): R {
  const out: Record<string, unknown> = {};
  for (const key in row) out[plugin.property(key)] = row[key];
  return out as R;
}

/**
 * A query built and compiled once, then run with new arguments: on the hot paths (a key lookup, a read
 * by id, a create) building and compiling a Kysely query costs more CPU than the database round trip.
 * `build` receives stand-ins for the arguments (strings, whatever the arguments' types) and must use
 * them only as values; the compiled SQL is then reused with the real ones, through `db` (the database
 * or an open transaction), rows camelCased. A raw `sql` statement is compiled with `k`:
 * `prepared((k, id) => compiledWith(k, sql\`…${id}…\`))`.
 */
export function prepared<A extends unknown[], R>(build: (k: Kysely<DB>, ...args: A) => Compilable<R>): (db: Queryable, ...args: A) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  let slots: Array<number | undefined> = [];
  return async (db, ...args) => {
    if (!compiled) {
      const stand = args.map((_, i) => `${SENTINEL}${i}`) as A;
      compiled = build(q(nowhere), ...stand).compile();
      preparable(compiled.sql);
      slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(SENTINEL) ? Number(p.slice(SENTINEL.length)) : undefined));
    }
    const params = compiled.parameters.map((p, i) => (slots[i] === undefined ? p : args[slots[i]]));
    const rows = await db.query<Record<string, unknown>>(compiled.sql, params);
    return rows.map((row) => camelRow<R>(row));
  };
}

/** A raw statement as a Compilable for `prepared`. */
export const compiledWith = <R>(k: Kysely<DB>, statement: RawBuilder<R>): Compilable<R> => ({ compile: () => statement.compile(k) });
