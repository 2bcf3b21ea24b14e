import { type Insertable, type Selectable, type Updateable, expressionBuilder, sql } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../db/client.js';
import { isoText } from '../../db/json-sql.js';
import { anyUuid, json, q } from '../../db/query.js';
import type { DB, NavigatorFrames, NavigatorPois, NavigatorShapes, Navigators } from '../../db/schema.js';
import { jsonList } from '../addons/addon-service.js';
import { type AssetUrlPrefixes, assetJson } from '../addons/assets.js';
import type { Reference } from '../shape-editor/index.js';
import type { Navigator, NavigatorImage, NavigatorOptions } from './schemas.js';

export type NavigatorRow = Selectable<Navigators>;
export type FrameRow = Selectable<NavigatorFrames>;
export type { Navigator };

/** The options a new navigator starts with: a plain 16:9 still image with the usual panels. */
export function defaultNavigatorOptions(name: string): NavigatorOptions {
  return {
    sourceWidth: 1920,
    sourceHeight: 1080,
    overlayWidth: 1920,
    overlayHeight: 1080,
    startingAngle: 0,
    minimalSidebarWidthPercent: 25,
    northFrameIndex: 0,
    hideFilters: [],
    hideColumns: [],
    navigatorName: name,
    canFreelyRotate: false,
    disableHidingSidebar: false,
    noApartmentsViewer: false,
    mirroredRotationCameraMovement: false,
    isLoopable: false,
    favouritesEnabled: true,
    compassEnabled: false,
    customTheme: {},
  };
}

/** A shape (aliased `s`) as JSON: the reference is whichever of apartment and building it names. */
function shapeJson() {
  const eb = expressionBuilder<{ s: NavigatorShapes }, 's'>();
  return jsonBuildObject({
    id: eb.ref('s.id'),
    name: eb.ref('s.name'),
    description: eb.ref('s.description'),
    referenceType: sql<string>`CASE WHEN s.apartment_id IS NULL THEN 'building' ELSE 'apartment' END`,
    referenceId: eb.fn.coalesce('s.apartmentId', 's.buildingId'),
    shape: eb.ref('s.shape'),
    createdAt: isoText(sql.ref('s.created_at')),
  });
}

function poiJson() {
  const eb = expressionBuilder<{ p: NavigatorPois }, 'p'>();
  return jsonBuildObject({
    id: eb.ref('p.id'),
    x: eb.ref('p.x'),
    y: eb.ref('p.y'),
    data: jsonBuildObject({ type: eb.ref('p.type'), panoramaId: eb.ref('p.panoramaId'), startingPanoramaId: eb.ref('p.startingPanoramaId') }),
    createdAt: isoText(sql.ref('p.created_at')),
  });
}

/** A frame (aliased `f`, its asset joined as `a`) as JSON with its shapes and POIs in their order. */
/** A frame's shapes (the frame aliased `f`) as one JSON list in their order: the `shapes` of frameJson. */
function shapesJson(organizationId: string) {
  const eb = expressionBuilder<DB & { f: NavigatorFrames }, 'f'>();
  return eb
    .selectFrom('navigatorShapes as s')
    .select((eb) => jsonList(eb.fn.jsonAgg(shapeJson()).orderBy('s.position')).as('shapes'))
    .where('s.organizationId', '=', organizationId)
    .whereRef('s.frameId', '=', 'f.id')
    .$asScalar();
}

function frameJson(organizationId: string, prefixes: AssetUrlPrefixes) {
  const eb = expressionBuilder<DB & { f: NavigatorFrames; a: DB['assets'] }, 'f' | 'a'>();
  const shapes = shapesJson(organizationId);
  const pois = eb
    .selectFrom('navigatorPois as p')
    .select((eb) => jsonList(eb.fn.jsonAgg(poiJson()).orderBy('p.position')).as('pois'))
    .where('p.organizationId', '=', organizationId)
    .whereRef('p.frameId', '=', 'f.id')
    .$asScalar();
  return jsonBuildObject({
    id: eb.ref('f.id'),
    angle: eb.ref('f.angle'),
    name: eb.ref('f.name'),
    imageUrl: eb(eb.cast<string>(eb.val(prefixes.original), 'text'), '||', eb.ref('a.storageKey')),
    isMarketingStop: eb.ref('f.isMarketingStop'),
    highlightLabel: eb.ref('f.highlightLabel'),
    assetId: eb.ref('f.assetId'),
    asset: assetJson(prefixes),
    shapes,
    pois,
    createdAt: isoText(sql.ref('f.created_at')),
  });
}

/** A navigator row with its frames (by angle) as built by the database. */
export type NavigatorWithImages = NavigatorRow & { images: NavigatorImage[] };

export const navigatorsRepository = {
  insert(db: Queryable, row: Omit<Insertable<Navigators>, 'options'> & { options: NavigatorOptions }): Promise<NavigatorRow> {
    return q(db)
      .insertInto('navigators')
      .values({ ...row, options: json(row.options) })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  get(db: Queryable, organizationId: string, id: string): Promise<NavigatorRow | undefined> {
    return q(db).selectFrom('navigators').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },

  /** The row, locked until the transaction ends: every change to a navigator and its frames takes it first. */
  lock(db: Queryable, organizationId: string, id: string): Promise<NavigatorRow | undefined> {
    return q(db).selectFrom('navigators').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
  },

  /** The estate's first navigator (the one without a parent). */
  root(db: Queryable, organizationId: string, estateId: string): Promise<NavigatorRow | undefined> {
    return q(db)
      .selectFrom('navigators')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .where('parentId', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  },

  /** Every navigator of the estate with its frames, shapes and POIs, oldest first: one statement. */
  estateDocuments(db: Queryable, organizationId: string, estateId: string, prefixes: AssetUrlPrefixes): Promise<NavigatorWithImages[]> {
    const eb = expressionBuilder<DB & { n: Navigators }, 'n'>();
    const images = eb
      .selectFrom('navigatorFrames as f')
      .innerJoin('assets as a', 'a.id', 'f.assetId')
      .select((eb) => jsonList(eb.fn.jsonAgg(frameJson(organizationId, prefixes)).orderBy('f.angle')).as('images'))
      .where('f.organizationId', '=', organizationId)
      .whereRef('f.navigatorId', '=', 'n.id')
      .$asScalar();
    return q(db)
      .selectFrom('navigators as n')
      .selectAll('n')
      .select(images.as('images'))
      .where('n.organizationId', '=', organizationId)
      .where('n.estateId', '=', estateId)
      .orderBy('n.createdAt')
      .orderBy('n.id')
      .execute() as Promise<NavigatorWithImages[]>;
  },

  async frame(db: Queryable, organizationId: string, frameId: string, prefixes: AssetUrlPrefixes): Promise<NavigatorImage> {
    const row = await q(db)
      .selectFrom('navigatorFrames as f')
      .innerJoin('assets as a', 'a.id', 'f.assetId')
      .select(frameJson(organizationId, prefixes).as('doc'))
      .where('f.organizationId', '=', organizationId)
      .where('f.id', '=', frameId)
      .executeTakeFirstOrThrow();
    return row.doc as NavigatorImage;
  },

  /**
   * A frame's shapes alone, as frame() shows them (the same JSON: their ETag is the same): what If-Match
   * of the shapes PUT and the shapes GET compare, without the frame's asset and POIs.
   */
  async frameShapes(db: Queryable, organizationId: string, frameId: string): Promise<NavigatorImage['shapes']> {
    const row = await q(db)
      .selectFrom('navigatorFrames as f')
      .select(shapesJson(organizationId).as('shapes'))
      .where('f.organizationId', '=', organizationId)
      .where('f.id', '=', frameId)
      .executeTakeFirstOrThrow();
    return row.shapes as NavigatorImage['shapes'];
  },

  update(db: Queryable, organizationId: string, id: string, fields: Omit<Updateable<Navigators>, 'options'> & { options?: NavigatorOptions }) {
    const { options, ...rest } = fields;
    return q(db)
      .updateTable('navigators')
      .set({ ...rest, ...(options ? { options: json(options) } : {}), updatedAt: sql`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async delete(db: Queryable, organizationId: string, id: string): Promise<void> {
    await q(db).deleteFrom('navigators').where('organizationId', '=', organizationId).where('id', '=', id).execute();
  },

  /** Makes `navigatorId` the estate's navigatorId (an estate made without quick setup gets its first navigator). */
  async pointEstateAt(db: Queryable, organizationId: string, estateId: string, navigatorId: string): Promise<void> {
    await q(db)
      .updateTable('estates')
      .set({ navigatorId, updatedAt: sql`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', estateId)
      .execute();
  },

  /** Whether the parent already has a nested navigator for this building. */
  async hasNested(db: Queryable, organizationId: string, parentId: string, referenceId: string): Promise<boolean> {
    const row = await q(db)
      .selectFrom('navigators')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('parentId', '=', parentId)
      .where('referenceId', '=', referenceId)
      .executeTakeFirst();
    return row !== undefined;
  },

  getFrame(db: Queryable, organizationId: string, navigatorId: string, frameId: string): Promise<FrameRow | undefined> {
    return q(db)
      .selectFrom('navigatorFrames')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('navigatorId', '=', navigatorId)
      .where('id', '=', frameId)
      .executeTakeFirst();
  },

  async hasFrames(db: Queryable, organizationId: string, navigatorId: string): Promise<boolean> {
    const row = await q(db)
      .selectFrom('navigatorFrames')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('navigatorId', '=', navigatorId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Each frame's angle and its image's pixel size (what new overlay sizes must match). */
  frameSizes(db: Queryable, organizationId: string, navigatorId: string): Promise<Array<{ angle: number; width: number; height: number }>> {
    return q(db)
      .selectFrom('navigatorFrames as f')
      .innerJoin('assets as a', 'a.id', 'f.assetId')
      .select(['f.angle', 'a.width', 'a.height'])
      .where('f.organizationId', '=', organizationId)
      .where('f.navigatorId', '=', navigatorId)
      .where('a.width', 'is not', null)
      .where('a.height', 'is not', null)
      .orderBy('f.angle')
      .execute() as Promise<Array<{ angle: number; width: number; height: number }>>;
  },

  /** The frame of the navigator at this angle, if any. */
  frameAt(db: Queryable, organizationId: string, navigatorId: string, angle: number): Promise<FrameRow | undefined> {
    return q(db)
      .selectFrom('navigatorFrames')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('navigatorId', '=', navigatorId)
      .where('angle', '=', angle)
      .executeTakeFirst();
  },

  async insertFrame(db: Queryable, row: Insertable<NavigatorFrames>): Promise<void> {
    await q(db).insertInto('navigatorFrames').values(row).execute();
  },

  async updateFrame(
    db: Queryable,
    organizationId: string,
    id: string,
    fields: Pick<Updateable<NavigatorFrames>, 'assetId' | 'angle' | 'name' | 'isMarketingStop' | 'highlightLabel'>,
  ): Promise<void> {
    await q(db)
      .updateTable('navigatorFrames')
      .set({ ...fields, updatedAt: sql`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .execute();
  },

  async deleteFrame(db: Queryable, organizationId: string, id: string): Promise<void> {
    await q(db).deleteFrom('navigatorFrames').where('organizationId', '=', organizationId).where('id', '=', id).execute();
  },

  /** How far the navigator's shapes and POIs reach: an overlay smaller than this would leave them outside. */
  async extent(db: Queryable, organizationId: string, navigatorId: string): Promise<{ maxX: number; maxY: number }> {
    const frames = (eb: ReturnType<typeof expressionBuilder<DB, never>>) =>
      eb.selectFrom('navigatorFrames').select('id').where('organizationId', '=', organizationId).where('navigatorId', '=', navigatorId);
    const row = await q(db)
      .selectFrom('navigatorShapes as s')
      .select(['s.maxX as x', 's.maxY as y'])
      .where('s.organizationId', '=', organizationId)
      .where('s.frameId', 'in', (eb) => frames(eb as never))
      .unionAll((eb) =>
        eb
          .selectFrom('navigatorPois as p')
          .select(['p.x as x', 'p.y as y'])
          .where('p.organizationId', '=', organizationId)
          .where('p.frameId', 'in', (eb) => frames(eb as never)),
      )
      .execute();
    let maxX = 0;
    let maxY = 0;
    for (const r of row) {
      maxX = Math.max(maxX, r.x);
      maxY = Math.max(maxY, r.y);
    }
    return { maxX, maxY };
  },

  /** Replaces a frame's shapes by these, in this order: one DELETE and one INSERT (one bound value for all rows). */
  async replaceShapes(db: Queryable, organizationId: string, frameId: string, shapes: ShapeRecord[]): Promise<void> {
    await q(db).deleteFrom('navigatorShapes').where('organizationId', '=', organizationId).where('frameId', '=', frameId).execute();
    if (shapes.length === 0) return;
    await db.query(
      `INSERT INTO navigator_shapes (id, organization_id, frame_id, position, name, description, apartment_id, building_id, shape, max_x, max_y)
       SELECT s.id, $1, $2, s.position, s.name, s.description, s.apartment_id, s.building_id, s.shape, s.max_x, s.max_y
       FROM json_to_recordset($3::json) AS s (id uuid, position integer, name text, description text, apartment_id uuid, building_id uuid,
         shape text, max_x double precision, max_y double precision)`,
      [organizationId, frameId, JSON.stringify(shapes)],
    );
  },

  async replacePois(db: Queryable, organizationId: string, frameId: string, pois: PoiRecord[]): Promise<void> {
    await q(db).deleteFrom('navigatorPois').where('organizationId', '=', organizationId).where('frameId', '=', frameId).execute();
    if (pois.length === 0) return;
    await db.query(
      `INSERT INTO navigator_pois (id, organization_id, frame_id, position, x, y, type, panorama_id, starting_panorama_id)
       SELECT p.id, $1, $2, p.position, p.x, p.y, p.type, p.panorama_id, p.starting_panorama_id
       FROM json_to_recordset($3::json) AS p (id uuid, position integer, x double precision, y double precision, type text,
         panorama_id uuid, starting_panorama_id uuid)`,
      [organizationId, frameId, JSON.stringify(pois)],
    );
  },

  /** Of these ids, the apartments (or buildings) of the estate and organization. */
  async ofEstate(db: Queryable, table: 'apartments' | 'buildings', organizationId: string, estateId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await q(db)
      .selectFrom(table)
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .where('id', '=', anyUuid(ids))
      .execute();
    return new Set(rows.map((r) => r.id));
  },

  /** The estate's apartments (name, externalId, status) and buildings (name): what a shape or an imported file may name. */
  async homesOf(db: Queryable, organizationId: string, estateId: string): Promise<Reference[]> {
    const apartments = await q(db)
      .selectFrom('apartments')
      .select(['id', 'name', 'externalId', 'status'])
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .orderBy('name')
      .execute();
    const buildings = await q(db)
      .selectFrom('buildings')
      .select(['id', 'name'])
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .orderBy('name')
      .execute();
    return [
      ...apartments.map((a) => ({ referenceType: 'apartment' as const, referenceId: a.id, name: a.name, externalId: a.externalId, status: a.status })),
      ...buildings.map((b) => ({ referenceType: 'building' as const, referenceId: b.id, name: b.name })),
    ];
  },

  async panoramasOf(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await q(db).selectFrom('panoramas').select('id').where('organizationId', '=', organizationId).where('id', '=', anyUuid(ids)).execute();
    return new Set(rows.map((r) => r.id));
  },
};

/** One row of navigator_shapes as replaceShapes writes it (snake_case: the json_to_recordset columns). */
export interface ShapeRecord {
  id: string;
  position: number;
  name: string | null;
  description: string | null;
  apartment_id: string | null;
  building_id: string | null;
  shape: string;
  max_x: number;
  max_y: number;
}

export interface PoiRecord {
  id: string;
  position: number;
  x: number;
  y: number;
  type: string;
  panorama_id: string | null;
  starting_panorama_id: string | null;
}
