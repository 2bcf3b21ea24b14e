import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/client.js';
import { json, prepared, q } from '../../src/db/query.js';

// Compiling needs no connection: these queries are never executed.
const nowhere: Queryable = {
  query: () => Promise.reject(new Error('not executed')),
};

describe('typed queries', () => {
  it('write camelCase properties as the snake_case columns of the migrations', () => {
    const { sql } = q(nowhere).selectFrom('apartments').select(['floorPlan3dPreviewUrls', 'priceCents']).where('organizationId', '=', 'x').compile();
    expect(sql).toBe('select "floor_plan_3d_preview_urls", "price_cents" from "apartments" where "organization_id" = $1');
    const asset = q(nowhere).selectFrom('assets').select('sha256').compile();
    expect(asset.sql).toBe('select "sha256" from "assets"');
  });

  it('send jsonb values as JSON text, arrays included', () => {
    const { sql, parameters } = q(nowhere)
      .updateTable('apartments')
      .set({ assetsIds: json(['a', 'b']) })
      .compile();
    expect(sql).toBe('update "apartments" set "assets_ids" = CAST($1 AS jsonb)');
    expect(parameters).toEqual(['["a","b"]']);
  });

  it('refuse, at type-check time, a column or table the schema does not have', () => {
    // `npm run typecheck` fails if any of these lines stops being an error (an unused @ts-expect-error).
    const apartments = q(nowhere).selectFrom('apartments');
    const update = q(nowhere).updateTable('apartments');
    const build = () => [
      // @ts-expect-error: no such column
      apartments.select('noSuchColumn'),
      // @ts-expect-error: no such table
      q(nowhere).selectFrom('no_such_table'),
      // @ts-expect-error: a jsonb column is written only through json()
      update.set({ assetsIds: ['a'] }),
      // @ts-expect-error: snake_case names are not properties
      apartments.select('price_cents'),
    ];
    // At run time nothing stops them: without the types they would reach the database.
    const [column, table, jsonb, snake] = build().map((query) => query.compile());
    expect(column?.sql).toBe('select "no_such_column" from "apartments"');
    expect(table?.sql).toBe('select from "no_such_table"');
    expect(jsonb?.parameters).toEqual([['a']]);
    expect(snake?.sql).toBe('select "price_cents" from "apartments"');
  });

  it('compile a prepared query once and run it with each call’s arguments, rows camelCased', async () => {
    const seen: Array<{ sql: string; params: readonly unknown[] }> = [];
    const recording: Queryable = {
      query: async <T>(sql: string, params: readonly unknown[] = []) => {
        seen.push({ sql, params });
        return [{ id: params[0], organization_id: params[1], floor_plan_3d_preview_urls: [] }] as T[];
      },
    };
    const byId = prepared((k, organizationId: string, id: string) =>
      k
        .selectFrom('apartments')
        .select(['id', 'organizationId', 'floorPlan3dPreviewUrls'])
        .where('id', '=', id)
        .where('organizationId', '=', organizationId)
        .limit(1),
    );
    expect(await byId(recording, 'org-1', 'apt-1')).toEqual([{ id: 'apt-1', organizationId: 'org-1', floorPlan3dPreviewUrls: [] }]);
    await byId(recording, 'org-2', 'apt-2');
    expect(seen.map((s) => s.params)).toEqual([
      ['apt-1', 'org-1', 1],
      ['apt-2', 'org-2', 1],
    ]);
    expect(seen[1]?.sql).toBe(
      'select "id", "organization_id", "floor_plan_3d_preview_urls" from "apartments" where "id" = $1 and "organization_id" = $2 limit $3',
    );
  });
});
