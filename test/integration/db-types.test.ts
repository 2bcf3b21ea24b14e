import { readFile } from 'node:fs/promises';
import { toKyselyCamelCase } from 'kysely-codegen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_FILE, generateDbTypes } from '../../scripts/db-types.js';
import { columnName, propertyName } from '../../src/db/query.js';
import { TEST_DATABASE, type TestDatabase, createTestDatabase } from '../helpers/database.js';

/**
 * The typed queries are checked against src/db/schema.ts; the migrations build the real schema. These
 * tests keep the two from drifting: the generated file must be what the migrated database says, and
 * every column must survive the camelCase round trip the queries rely on.
 */
describe(`database types (${TEST_DATABASE})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('src/db/schema.ts is exactly what the migrations build (run npm run db:types after a migration)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    expect(await generateDbTypes(database.db)).toBe(committed);
  });

  it('every column is reached from its generated property name, and read back under it', async () => {
    const columns = await database.db.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'",
    );
    expect(columns.length).toBeGreaterThan(100);
    const broken = columns
      .filter((c) => {
        const property = toKyselyCamelCase(c.column_name);
        return columnName(property) !== c.column_name || propertyName(c.column_name) !== property;
      })
      .map((c) => `${c.table_name}.${c.column_name}`);
    expect(broken).toEqual([]);
  });
});
