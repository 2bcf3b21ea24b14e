import { type Insertable, type Updateable, expressionBuilder, sql } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../../db/client.js';
import { deleteOwned, q, updateOwned } from '../../../db/query.js';
import type { Assets, DB, InvestmentFiles, InvestmentSections } from '../../../db/schema.js';
import { addonDocument, jsonList } from '../addon-service.js';
import { type AssetUrlPrefixes, assetJson } from '../assets.js';

/** A file (aliased `f`, its asset joined as `a`) as JSON; its rules: the position is its `order`, the asset is embedded. */
function file(srcPrefix: AssetUrlPrefixes) {
  const eb = expressionBuilder<{ f: InvestmentFiles; a: Assets }, 'f' | 'a'>();
  return jsonBuildObject({
    id: eb.ref('f.id'),
    assetId: eb.ref('f.assetId'),
    label: eb.ref('f.label'),
    order: eb.ref('f.position'),
    asset: assetJson(srcPrefix),
  });
}

/** A section (aliased `s`) as JSON; its rules: the position is its `order`, its files are embedded in their order. */
function section(organizationId: string, srcPrefix: AssetUrlPrefixes) {
  const eb = expressionBuilder<DB & { s: InvestmentSections }, 's'>();
  const files = eb
    .selectFrom('investmentFiles as f')
    .innerJoin('assets as a', 'a.id', 'f.assetId')
    .select((eb) => jsonList(eb.fn.jsonAgg(file(srcPrefix)).orderBy('f.position').orderBy('f.id')).as('files'))
    .where('f.organizationId', '=', organizationId)
    .whereRef('f.sectionId', '=', 's.id')
    .$asScalar();
  return jsonBuildObject({ id: eb.ref('s.id'), title: eb.ref('s.title'), description: eb.ref('s.description'), order: eb.ref('s.position'), files });
}

export const investmentRepository = {
  /** The whole add-on in one statement: sections with their files, and the state. */
  document(db: Queryable, organizationId: string, estateId: string, srcPrefix: AssetUrlPrefixes) {
    const sections = expressionBuilder<DB, never>()
      .selectFrom('investmentSections as s')
      .select((eb) => jsonList(eb.fn.jsonAgg(section(organizationId, srcPrefix)).orderBy('s.position').orderBy('s.id')).as('sections'))
      .where('s.organizationId', '=', organizationId)
      .where('s.estateId', '=', estateId)
      .$asScalar();
    return addonDocument(db, organizationId, estateId, 'investment').select(sections.as('sections')).executeTakeFirstOrThrow();
  },

  async section(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: AssetUrlPrefixes) {
    const row = await q(db)
      .selectFrom('investmentSections as s')
      .select(section(organizationId, srcPrefix).as('doc'))
      .where((eb) => eb.and({ 's.organizationId': organizationId, 's.estateId': estateId, 's.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async file(db: Queryable, organizationId: string, estateId: string, id: string, srcPrefix: AssetUrlPrefixes) {
    const row = await q(db)
      .selectFrom('investmentFiles as f')
      .innerJoin('assets as a', 'a.id', 'f.assetId')
      .select(file(srcPrefix).as('doc'))
      .where((eb) => eb.and({ 'f.organizationId': organizationId, 'f.estateId': estateId, 'f.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async insertSection(db: Queryable, row: Insertable<InvestmentSections>) {
    await q(db).insertInto('investmentSections').values(row).execute();
  },

  async updateSection(db: Queryable, organizationId: string, id: string, fields: Pick<Updateable<InvestmentSections>, 'title' | 'description'>) {
    await updateOwned(db, 'investmentSections', organizationId, id, fields);
  },

  /** Files go with their section (ON DELETE CASCADE). */
  async deleteSection(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'investmentSections', organizationId, id);
  },

  async insertFile(db: Queryable, row: Insertable<InvestmentFiles>) {
    await q(db).insertInto('investmentFiles').values(row).execute();
  },

  async updateFile(db: Queryable, organizationId: string, id: string, fields: Pick<Updateable<InvestmentFiles>, 'label'>) {
    await updateOwned(db, 'investmentFiles', organizationId, id, fields);
  },

  async deleteFile(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'investmentFiles', organizationId, id);
  },
};
