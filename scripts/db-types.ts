/**
 * Generates src/db/schema.ts, the `DB` type every typed query is checked against, from the schema the
 * migrations build: a fresh in-memory PGlite is migrated and introspected (kysely-codegen). The
 * migrations stay the one schema definition; this file only reads it.
 *
 *   npm run db:types            rewrite src/db/schema.ts
 *   npm run db:types -- --check fail when src/db/schema.ts differs (CI; test/integration/db-types.test.ts)
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { type DatabaseMetadata, PostgresDialect, serializeFromMetadata } from 'kysely-codegen';
import { type Database, openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { projectRoot } from '../src/paths.js';

export const SCHEMA_FILE = path.join(projectRoot, 'src/db/schema.ts');

/**
 * What a jsonb column holds, in terms of the API types (TypeBox `Static<>` of the response schemas).
 * jsonb is the only column type whose content the database does not describe.
 */
const JSON_COLUMNS: Record<string, string> = {
  'apartments.apartment_data': "Apartment['apartmentData']",
  'apartments.assets_ids': 'string[]',
  'apartments.floor_plan_urls': 'string[]',
  'apartments.floor_plan_preview_urls': 'string[]',
  'apartments.floor_plan_3d_preview_urls': 'string[]',
  'apartments.preferred_angles': "Apartment['preferredAngles']",
  'apartments.price_change_history': "Apartment['priceChangeHistory']",
  'buildings.features': 'FeatureInput[]',
  'navigators.options': "Navigator['options']",
  'panoramas.metadata': "Panorama['metadata']",
  'panoramas.comments': "Panorama['comments']",
  'panoramas.portals': "Panorama['portals']",
  'panoramas.pois': "Panorama['pois']",
  'idempotency_keys.response_headers': 'Record<string, string>',
  'assets.variants': 'StoredVariant[]',
  'estate_pages.embed_origins': 'string[]',
  'estate_pages.contact': 'PageContact',
};

const IMPORTS: Record<string, string> = {
  Jsonb: './query.js',
  Apartment: '../modules/apartments/schemas.js',
  StoredVariant: '../modules/assets/schemas.js',
  FeatureInput: '../modules/buildings/schemas.js',
  Navigator: '../modules/navigators/schemas.js',
  Panorama: '../modules/panoramas/schemas.js',
  PageContact: '../modules/pages/schemas.js',
};

/** A Kysely over one of our connections, only for the introspection queries. */
function introspectionBuilder(db: Database): Kysely<unknown> {
  return new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createDriver: () => ({
        init: async () => {},
        destroy: async () => {},
        acquireConnection: async () => ({
          executeQuery: async <R>(c: { sql: string; parameters: readonly unknown[] }) => ({ rows: await db.query<R>(c.sql, c.parameters) }),
          streamQuery: () => {
            throw new Error('not used');
          },
        }),
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
      }),
    },
  });
}

/** jsonb overrides; a listed column that no longer exists stops the generator rather than going stale. */
function jsonOverrides(metadata: DatabaseMetadata): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const [key, type] of Object.entries(JSON_COLUMNS)) {
    const [table, column] = key.split('.') as [string, string];
    const meta = metadata.tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
    if (!meta || meta.dataType !== 'jsonb') throw new Error(`JSON_COLUMNS names ${key}, which is not a jsonb column`);
    const value = meta.isNullable ? `Jsonb<${type}> | null` : `Jsonb<${type}>`;
    overrides[key] = meta.hasDefaultValue ? `Generated<${value}>` : value;
  }
  return overrides;
}

/** The text of src/db/schema.ts for the schema of `db` (already migrated). */
export async function generateDbTypes(db: Database): Promise<string> {
  const dialect = new PostgresDialect();
  const metadata = await dialect.introspector.introspect({ db: introspectionBuilder(db) as never, excludePattern: 'schema_migrations' });
  return serializeFromMetadata({
    metadata,
    dialect,
    camelCase: true,
    // Both drivers parse int8/numeric as numbers and timestamptz as ISO strings (src/db/client.ts).
    typeMapping: { int8: 'number', numeric: 'number', timestamptz: 'string' },
    overrides: { columns: jsonOverrides(metadata) },
    customImports: IMPORTS,
  });
}

async function main(): Promise<void> {
  const db = await openDatabase({});
  try {
    await migrate(db);
    const text = await generateDbTypes(db);
    if (process.argv.includes('--check')) {
      const current = await readFile(SCHEMA_FILE, 'utf8');
      if (current !== text) {
        console.error('src/db/schema.ts does not match the migrations: run npm run db:types');
        process.exitCode = 1;
      }
    } else {
      await writeFile(SCHEMA_FILE, text);
      console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
    }
  } finally {
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
