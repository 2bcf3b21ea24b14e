import { type Insertable, type Updateable, expressionBuilder, sql } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../../db/client.js';
import { deleteOwned, q, updateOwned } from '../../../db/query.js';
import type { Assets, DB, DownloadsGroups, DownloadsItems } from '../../../db/schema.js';
import { addonDocument, jsonList } from '../addon-service.js';
import { type AssetUrlPrefixes, assetJson } from '../assets.js';

/** An item (aliased `d`, its asset joined as `a`) as JSON; its rules: the position is its `order`, the asset is embedded. */
function item(srcPrefix: AssetUrlPrefixes) {
  const eb = expressionBuilder<{ d: DownloadsItems; a: Assets }, 'd' | 'a'>();
  return jsonBuildObject({
    id: eb.ref('d.id'),
    assetId: eb.ref('d.assetId'),
    label: eb.ref('d.label'),
    order: eb.ref('d.position'),
    asset: assetJson(srcPrefix),
  });
}

/** A group (aliased `g`) as JSON; its rules: the position is its `order`, its items are embedded in their order. */
function group(organizationId: string, srcPrefix: AssetUrlPrefixes) {
  const eb = expressionBuilder<DB & { g: DownloadsGroups }, 'g'>();
  const items = eb
    .selectFrom('downloadsItems as d')
    .innerJoin('assets as a', 'a.id', 'd.assetId')
    .select((eb) => jsonList(eb.fn.jsonAgg(item(srcPrefix)).orderBy('d.position').orderBy('d.id')).as('items'))
    .where('d.organizationId', '=', organizationId)
    .whereRef('d.groupId', '=', 'g.id')
    .$asScalar();
  return jsonBuildObject({ id: eb.ref('g.id'), title: eb.ref('g.title'), order: eb.ref('g.position'), items });
}

export const downloadsRepository = {
  /** Groups with their items, and the state, in one statement. */
  document(db: Queryable, organizationId: string, estateId: string, srcPrefix: AssetUrlPrefixes) {
    const groups = expressionBuilder<DB, never>()
      .selectFrom('downloadsGroups as g')
      .select((eb) => jsonList(eb.fn.jsonAgg(group(organizationId, srcPrefix)).orderBy('g.position').orderBy('g.id')).as('groups'))
      .where('g.organizationId', '=', organizationId)
      .where('g.estateId', '=', estateId)
      .$asScalar();
    return addonDocument(db, organizationId, estateId, 'downloads').select(groups.as('groups')).executeTakeFirstOrThrow();
  },

  async group(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: AssetUrlPrefixes) {
    const row = await q(db)
      .selectFrom('downloadsGroups as g')
      .select(group(organizationId, srcPrefix).as('doc'))
      .where((eb) => eb.and({ 'g.organizationId': organizationId, 'g.estateId': estateId, 'g.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async item(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: AssetUrlPrefixes) {
    const row = await q(db)
      .selectFrom('downloadsItems as d')
      .innerJoin('assets as a', 'a.id', 'd.assetId')
      .select(item(srcPrefix).as('doc'))
      .where((eb) => eb.and({ 'd.organizationId': organizationId, 'd.estateId': estateId, 'd.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async insertGroup(db: Queryable, row: Insertable<DownloadsGroups>) {
    await q(db).insertInto('downloadsGroups').values(row).execute();
  },

  async updateGroup(db: Queryable, organizationId: string, id: string, title: string) {
    await q(db)
      .updateTable('downloadsGroups')
      .set({ title, updatedAt: sql`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .execute();
  },

  /** Items go with their group (ON DELETE CASCADE). */
  async deleteGroup(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'downloadsGroups', organizationId, id);
  },

  async insertItem(db: Queryable, row: Insertable<DownloadsItems>) {
    await q(db).insertInto('downloadsItems').values(row).execute();
  },

  async updateItem(db: Queryable, organizationId: string, id: string, fields: Pick<Updateable<DownloadsItems>, 'label' | 'assetId'>) {
    await updateOwned(db, 'downloadsItems', organizationId, id, fields);
  },

  async deleteItem(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'downloadsItems', organizationId, id);
  },
};
