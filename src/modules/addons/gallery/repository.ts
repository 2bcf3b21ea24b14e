import { type Insertable, type Updateable, expressionBuilder, sql } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../../db/client.js';
import { deleteOwned, q, updateOwned } from '../../../db/query.js';
import type { Assets, DB, GalleryItems, GallerySections } from '../../../db/schema.js';
import { addonDocument, jsonList } from '../addon-service.js';
import { type AssetUrlPrefixes, assetJson } from '../assets.js';

/** An item (aliased `i`, its asset joined as `a`) as JSON; its rules: the position is its `order`, the asset is embedded. */
function item(srcPrefix: AssetUrlPrefixes) {
  const eb = expressionBuilder<{ i: GalleryItems; a: Assets }, 'i' | 'a'>();
  return jsonBuildObject({
    id: eb.ref('i.id'),
    assetId: eb.ref('i.assetId'),
    caption: eb.ref('i.caption'),
    sectionId: eb.ref('i.sectionId'),
    order: eb.ref('i.position'),
    asset: assetJson(srcPrefix),
  });
}

/** The items of the section aliased `s` (or, with `ungrouped`, the items of no section) as a JSON array in their order. */
function items(organizationId: string, estateId: string, srcPrefix: AssetUrlPrefixes, ungrouped = false) {
  return expressionBuilder<DB & { s: GallerySections }, 's'>()
    .selectFrom('galleryItems as i')
    .innerJoin('assets as a', 'a.id', 'i.assetId')
    .select((eb) => jsonList(eb.fn.jsonAgg(item(srcPrefix)).orderBy('i.position').orderBy('i.id')).as('items'))
    .where('i.organizationId', '=', organizationId)
    .where('i.estateId', '=', estateId)
    .where((eb) => (ungrouped ? eb('i.sectionId', 'is', null) : eb('i.sectionId', '=', eb.ref('s.id'))))
    .$asScalar();
}

/** A section (aliased `s`) as JSON; its rules: the position is its `order`, its items are embedded. */
function section(organizationId: string, estateId: string, srcPrefix: AssetUrlPrefixes) {
  const eb = expressionBuilder<{ s: GallerySections }, 's'>();
  return jsonBuildObject({
    id: eb.ref('s.id'),
    title: eb.ref('s.title'),
    description: eb.ref('s.description'),
    order: eb.ref('s.position'),
    items: items(organizationId, estateId, srcPrefix),
  });
}

export const galleryRepository = {
  /** The whole gallery in one statement: sections with their items, ungrouped items, state. */
  document(db: Queryable, organizationId: string, estateId: string, srcPrefix: AssetUrlPrefixes) {
    const eb = expressionBuilder<DB, never>();
    const sections = eb
      .selectFrom('gallerySections as s')
      .select((eb) =>
        jsonList(
          eb.fn
            .jsonAgg(section(organizationId, estateId, srcPrefix))
            .orderBy('s.position')
            .orderBy('s.id'),
        ).as('sections'),
      )
      .where('s.organizationId', '=', organizationId)
      .where('s.estateId', '=', estateId)
      .$asScalar();
    return addonDocument(db, organizationId, estateId, 'gallery')
      .select([sections.as('sections'), items(organizationId, estateId, srcPrefix, true).as('items')])
      .executeTakeFirstOrThrow();
  },

  async section(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: AssetUrlPrefixes) {
    const row = await q(db)
      .selectFrom('gallerySections as s')
      .select(section(organizationId, estateId, srcPrefix).as('doc'))
      .where((eb) => eb.and({ 's.organizationId': organizationId, 's.estateId': estateId, 's.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async item(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: AssetUrlPrefixes) {
    const row = await q(db)
      .selectFrom('galleryItems as i')
      .innerJoin('assets as a', 'a.id', 'i.assetId')
      .select(item(srcPrefix).as('doc'))
      .where((eb) => eb.and({ 'i.organizationId': organizationId, 'i.estateId': estateId, 'i.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async insertSection(db: Queryable, row: Insertable<GallerySections>) {
    await q(db).insertInto('gallerySections').values(row).execute();
  },

  async updateSection(db: Queryable, organizationId: string, id: string, fields: Pick<Updateable<GallerySections>, 'title' | 'description'>) {
    await updateOwned(db, 'gallerySections', organizationId, id, fields);
  },

  async deleteSection(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'gallerySections', organizationId, id);
  },

  /** Moves every item of a section to ungrouped, keeping positions for the caller to renumber. */
  async ungroupItems(db: Queryable, organizationId: string, sectionId: string, basePosition: number) {
    await q(db)
      .updateTable('galleryItems')
      .set((eb) => ({ sectionId: null, position: eb(eb.val(basePosition), '+', eb.ref('position')), updatedAt: sql`now()` }))
      .where('organizationId', '=', organizationId)
      .where('sectionId', '=', sectionId)
      .execute();
  },

  async insertItem(db: Queryable, row: Insertable<GalleryItems>) {
    await q(db).insertInto('galleryItems').values(row).execute();
  },

  /** Changes the fields given (a move gives sectionId and position together). */
  async updateItem(
    db: Queryable,
    organizationId: string,
    id: string,
    fields: Pick<Updateable<GalleryItems>, 'caption' | 'assetId' | 'sectionId' | 'position'>,
  ) {
    await updateOwned(db, 'galleryItems', organizationId, id, fields);
  },

  async deleteItem(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'galleryItems', organizationId, id);
  },
};
