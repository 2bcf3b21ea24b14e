import { type ExpressionWrapper, type Insertable, type Updateable, expressionBuilder, sql } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../../db/client.js';
import { deleteOwned, q, updateOwned } from '../../../db/query.js';
import type { DB, MapConfigs, MapPois } from '../../../db/schema.js';
import { addonDocument, jsonList } from '../addon-service.js';
import { type AssetUrlPrefixes, assetJson } from '../assets.js';

/** The configuration columns a PUT may set. */
type MapConfigFields = Omit<Insertable<MapConfigs>, 'organizationId' | 'estateId' | 'createdAt' | 'updatedAt'>;

/** A scalar subquery that may find no row: its value, or null. */
const orNull = <D, T extends keyof D, V>(e: ExpressionWrapper<D, T, V>) => e.$castTo<V | null>();

/** A point of interest (aliased `p`) as JSON; its rule: the position is its `order` (the service adds distances). */
function poi() {
  const eb = expressionBuilder<{ p: MapPois }, 'p'>();
  return jsonBuildObject({
    id: eb.ref('p.id'),
    category: eb.ref('p.category'),
    label: eb.ref('p.label'),
    lat: eb.ref('p.lat'),
    lng: eb.ref('p.lng'),
    customDistanceLabel: eb.ref('p.customDistanceLabel'),
    order: eb.ref('p.position'),
  });
}

export const mapRepository = {
  /** Configuration, logo asset, points of interest and state in one statement. */
  document(db: Queryable, organizationId: string, estateId: string, srcPrefix: AssetUrlPrefixes) {
    const eb = expressionBuilder<DB, never>();
    const config = eb
      .selectFrom('mapConfigs as c')
      .select((eb) => {
        // The logo is embedded as its asset object; none when unset.
        const logoAsset = eb
          .selectFrom('assets as a')
          .select(assetJson(srcPrefix).as('asset'))
          .where('a.organizationId', '=', organizationId)
          .whereRef('a.id', '=', 'c.logoAssetId')
          .$asScalar();
        return jsonBuildObject({
          centerLat: eb.ref('c.centerLat'),
          centerLng: eb.ref('c.centerLng'),
          defaultZoom: eb.ref('c.defaultZoom'),
          tileStyle: eb.ref('c.tileStyle'),
          defaultViewLat: eb.ref('c.defaultViewLat'),
          defaultViewLng: eb.ref('c.defaultViewLng'),
          logoAssetId: eb.ref('c.logoAssetId'),
          logoAsset: orNull(logoAsset),
        }).as('config');
      })
      .where('c.organizationId', '=', organizationId)
      .where('c.estateId', '=', estateId)
      .$asScalar();
    const pois = eb
      .selectFrom('mapPois as p')
      .select((eb) => jsonList(eb.fn.jsonAgg(poi()).orderBy('p.position').orderBy('p.id')).as('pois'))
      .where('p.organizationId', '=', organizationId)
      .where('p.estateId', '=', estateId)
      .$asScalar();
    return addonDocument(db, organizationId, estateId, 'map')
      .select([orNull(config).as('config'), pois.as('pois')])
      .executeTakeFirstOrThrow();
  },

  config(db: Queryable, organizationId: string, estateId: string) {
    return q(db).selectFrom('mapConfigs').selectAll().where('organizationId', '=', organizationId).where('estateId', '=', estateId).executeTakeFirst();
  },

  /** Creates the configuration with defaults, or changes only the fields given. */
  async upsertConfig(db: Queryable, organizationId: string, estateId: string, fields: MapConfigFields) {
    await q(db)
      .insertInto('mapConfigs')
      .values({ ...fields, organizationId, estateId })
      .onConflict((oc) =>
        oc
          .column('estateId')
          .doUpdateSet({ ...fields, updatedAt: sql`now()` })
          .where('mapConfigs.organizationId', '=', organizationId),
      )
      .execute();
  },

  async deleteAll(db: Queryable, organizationId: string, estateId: string) {
    await q(db).deleteFrom('mapPois').where('organizationId', '=', organizationId).where('estateId', '=', estateId).execute();
    await q(db).deleteFrom('mapConfigs').where('organizationId', '=', organizationId).where('estateId', '=', estateId).execute();
  },

  async poi(db: Queryable, organizationId: string, estateId: string, id: string) {
    const row = await q(db)
      .selectFrom('mapPois as p')
      .select(poi().as('doc'))
      .where((eb) => eb.and({ 'p.organizationId': organizationId, 'p.estateId': estateId, 'p.id': id }))
      .executeTakeFirst();
    return row?.doc;
  },

  async insertPoi(db: Queryable, row: Insertable<MapPois>) {
    await q(db).insertInto('mapPois').values(row).execute();
  },

  async updatePoi(
    db: Queryable,
    organizationId: string,
    id: string,
    fields: Pick<Updateable<MapPois>, 'category' | 'label' | 'lat' | 'lng' | 'customDistanceLabel'>,
  ) {
    await updateOwned(db, 'mapPois', organizationId, id, fields);
  },

  async deletePoi(db: Queryable, organizationId: string, id: string) {
    await deleteOwned(db, 'mapPois', organizationId, id);
  },
};
