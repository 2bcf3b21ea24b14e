import { type ExpressionBuilder, type Insertable, type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { type JsonbParam, anyUuid, q } from '../../db/query.js';
import type { Assets, DB } from '../../db/schema.js';
import { publiclyShown } from './public-assets.js';
import type { StoredVariant, UsedBy } from './schemas.js';

export type AssetRow = Selectable<Assets>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The image fields a finished (or failed) variant job writes. */
export interface ImageOutcome {
  width: number | null;
  height: number | null;
  hasLocation?: boolean;
  placeholder: string | null;
  variants: JsonbParam<StoredVariant[]>;
  imageState: 'ready' | 'failed';
}

/** An apartment `ap` whose assetsIds name the asset `a` (ids are stored lowercase; the GIN index answers it). */
const apartmentNames = sql<boolean>`ap.assets_ids @> jsonb_build_array(a.id::text)`;

/** Whether anything uses the asset aliased `a`: an apartment, a gallery item, an investment file, a downloads item, a map logo, a navigator frame. */
function isUsed(eb: ExpressionBuilder<DB & { a: Assets }, 'a'>) {
  const sameOrg = 'a.organizationId' as const;
  return eb.or([
    eb.exists(eb.selectFrom('apartments as ap').select('ap.id').whereRef('ap.organizationId', '=', sameOrg).where(apartmentNames)),
    eb.exists(eb.selectFrom('galleryItems as g').select('g.id').whereRef('g.organizationId', '=', sameOrg).whereRef('g.assetId', '=', 'a.id')),
    eb.exists(eb.selectFrom('investmentFiles as f').select('f.id').whereRef('f.organizationId', '=', sameOrg).whereRef('f.assetId', '=', 'a.id')),
    eb.exists(eb.selectFrom('downloadsItems as d').select('d.id').whereRef('d.organizationId', '=', sameOrg).whereRef('d.assetId', '=', 'a.id')),
    eb.exists(eb.selectFrom('mapConfigs as m').select('m.estateId').whereRef('m.organizationId', '=', sameOrg).whereRef('m.logoAssetId', '=', 'a.id')),
    eb.exists(eb.selectFrom('navigatorFrames as nf').select('nf.id').whereRef('nf.organizationId', '=', sameOrg).whereRef('nf.assetId', '=', 'a.id')),
  ]);
}

export const assetsRepository = {
  /** Inserts the row and, in the same statement, settles the storage intent its upload recorded. */
  insert(db: Queryable, row: Insertable<Assets>, intentId: string): Promise<AssetRow> {
    return q(db)
      .with('settled', (d) => d.deleteFrom('storageIntents').where('id', '=', intentId))
      .insertInto('assets')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** One asset of the organization; `publicOnly`: only one a public page shows (a publishable key's read). */
  get(db: Queryable, organizationId: string, id: string, publicOnly = false): Promise<AssetRow | undefined> {
    const query = q(db).selectFrom('assets as a').selectAll('a').where('a.organizationId', '=', organizationId).where('a.id', '=', id);
    return (publicOnly ? query.where(publiclyShown) : query).executeTakeFirst();
  },

  /** A page of the organization's assets, newest first, and how many match in all. */
  async list(
    db: Queryable,
    organizationId: string,
    opts: { mimePrefix?: string | undefined; unused?: boolean | undefined; publicOnly?: boolean; offset: number; limit: number },
  ): Promise<{ total: number; rows: AssetRow[] }> {
    let query = q(db).selectFrom('assets as a').selectAll('a').where('a.organizationId', '=', organizationId);
    if (opts.publicOnly) query = query.where(publiclyShown);
    if (opts.mimePrefix !== undefined) {
      // LIKE's default escape character is the backslash, which escapeLike puts before % and _.
      query = query.where('a.mimeType', 'like', `${escapeLike(opts.mimePrefix.toLowerCase())}%`);
    }
    if (opts.unused !== undefined) query = query.where((eb) => (opts.unused ? eb.not(isUsed(eb)) : isUsed(eb)));
    const [counted, rows] = await Promise.all([
      q(db)
        .selectFrom(query.as('m'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      query.orderBy('a.createdAt', 'desc').orderBy('a.id', 'desc').offset(opts.offset).limit(opts.limit).execute(),
    ]);
    return { total: Number(counted.n), rows };
  },

  /**
   * What uses an asset of the organization, each list in id order. `publicOnly` (a publishable key):
   * only what a public page shows, add-on children of enabled add-ons (src/modules/assets/public-assets.ts).
   */
  async usage(db: Queryable, organizationId: string, id: string, publicOnly = false): Promise<UsedBy> {
    const ids = <T>(rows: Array<{ id: T }>) => rows.map((r) => r.id);
    const k = q(db);
    // The child's own table named in full: addon_states has an estate_id too.
    const shown = (table: string, kind: string) =>
      publicOnly
        ? sql<boolean>`EXISTS (SELECT 1 FROM addon_states s WHERE s.estate_id = ${sql.table(table)}.estate_id AND s.kind = ${kind} AND s.enabled)`
        : sql<boolean>`true`;
    const [apartments, gallery, investment, downloads, mapLogo, navigatorFrames] = await Promise.all([
      k
        .selectFrom('apartments')
        .select('id')
        .where('organizationId', '=', organizationId)
        .where(sql<boolean>`assets_ids @> jsonb_build_array(${id}::text)`)
        .orderBy('id')
        .execute(),
      k
        .selectFrom('galleryItems')
        .select('id')
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', id)
        .where(shown('gallery_items', 'gallery'))
        .orderBy('id')
        .execute(),
      k
        .selectFrom('investmentFiles')
        .select('id')
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', id)
        .where(shown('investment_files', 'investment'))
        .orderBy('id')
        .execute(),
      k
        .selectFrom('downloadsItems')
        .select('id')
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', id)
        .where(shown('downloads_items', 'downloads'))
        .orderBy('id')
        .execute(),
      k
        .selectFrom('mapConfigs')
        .select('estateId as id')
        .where('organizationId', '=', organizationId)
        .where('logoAssetId', '=', id)
        .where(shown('map_configs', 'map'))
        .orderBy('estateId')
        .execute(),
      k.selectFrom('navigatorFrames').select('id').where('organizationId', '=', organizationId).where('assetId', '=', id).orderBy('id').execute(),
    ]);
    return {
      apartments: ids(apartments),
      gallery: ids(gallery),
      investment: ids(investment),
      downloads: ids(downloads),
      mapLogo: ids(mapLogo),
      navigatorFrames: ids(navigatorFrames),
    };
  },

  /**
   * For a page of assets at once (the dashboard's list): how many of each kind of use each asset has, per
   * estate. The same six uses as `usage`, counted in one statement instead of six per asset.
   */
  usageCounts(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Array<{ assetId: string; kind: string; estateId: string; n: number }>> {
    const k = q(db);
    const count = sql<number>`count(*)::int`;
    const addonChild = (table: 'galleryItems' | 'investmentFiles' | 'downloadsItems', kind: string) =>
      k
        .selectFrom(table as 'galleryItems')
        .select(['assetId', sql<string>`${kind}::text`.as('kind'), 'estateId', count.as('n')])
        .where('organizationId', '=', organizationId)
        .where('assetId', '=', anyUuid(ids))
        .groupBy(['assetId', 'estateId']);
    return k
      .selectFrom('apartments as ap')
      .innerJoin('assets as a', (j) => j.onRef('a.organizationId', '=', 'ap.organizationId').on(apartmentNames))
      .select(['a.id as assetId', sql<string>`'apartments'`.as('kind'), 'ap.estateId', count.as('n')])
      .where('ap.organizationId', '=', organizationId)
      .where('a.id', '=', anyUuid(ids))
      .groupBy(['a.id', 'ap.estateId'])
      .unionAll(addonChild('galleryItems', 'gallery'))
      .unionAll(addonChild('investmentFiles', 'investment'))
      .unionAll(addonChild('downloadsItems', 'downloads'))
      .unionAll(
        k
          .selectFrom('mapConfigs')
          .select([sql<string>`logo_asset_id`.as('assetId'), sql<string>`'mapLogo'`.as('kind'), 'estateId', count.as('n')])
          .where('organizationId', '=', organizationId)
          .where('logoAssetId', '=', anyUuid(ids))
          .groupBy(['logoAssetId', 'estateId']),
      )
      .unionAll(
        k
          .selectFrom('navigatorFrames as f')
          .innerJoin('navigators as nv', (j) => j.onRef('nv.id', '=', 'f.navigatorId').onRef('nv.organizationId', '=', 'f.organizationId'))
          .select(['f.assetId', sql<string>`'navigatorFrames'`.as('kind'), 'nv.estateId', count.as('n')])
          .where('f.organizationId', '=', organizationId)
          .where('f.assetId', '=', anyUuid(ids))
          .groupBy(['f.assetId', 'nv.estateId']),
      )
      .execute() as Promise<Array<{ assetId: string; kind: string; estateId: string; n: number }>>;
  },

  /** Of the given ids, those that are assets of the organization. */
  async ownedIds(db: Queryable, organizationId: string, ids: readonly string[]): Promise<string[]> {
    const rows = await q(db).selectFrom('assets').select('id').where('organizationId', '=', organizationId).where('id', '=', anyUuid(ids)).execute();
    return rows.map((r) => r.id);
  },

  /** Which of these storage keys have an asset row (the orphan sweep keeps those). */
  async existingKeys(db: Queryable, keys: readonly string[]): Promise<string[]> {
    const rows = await q(db).selectFrom('assets').select('storageKey').where('storageKey', '=', sql<string>`ANY(CAST(${keys} AS text[]))`).execute();
    return rows.map((r) => r.storageKey);
  },

  /**
   * Images whose variants are still to be made, oldest first, across organizations: the start-up
   * resume of the variant jobs. Like the anonymous add-on lookup it is not scoped by organization;
   * it returns each asset's organization and every query after it is scoped by that.
   */
  pendingImages(db: Queryable, limit: number): Promise<Array<{ organizationId: string; id: string }>> {
    return q(db)
      .selectFrom('assets')
      .select(['organizationId', 'id'])
      .where('imageState', '=', 'pending')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  /** Records a variant job's outcome, only while the asset still exists and is pending; whether it did. */
  async finishImage(db: Queryable, organizationId: string, id: string, outcome: ImageOutcome): Promise<boolean> {
    const row = await q(db)
      .updateTable('assets')
      .set(outcome)
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .where('imageState', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  delete(db: Queryable, organizationId: string, id: string): Promise<AssetRow | undefined> {
    return q(db).deleteFrom('assets').where('organizationId', '=', organizationId).where('id', '=', id).returningAll().executeTakeFirst();
  },
};
