import type { Selectable } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { anyUuid, json, q } from '../../db/query.js';
import type { Panoramas } from '../../db/schema.js';

export type PanoramaRow = Selectable<Panoramas>;
export type NewPanorama = Omit<PanoramaRow, 'createdAt'>;

const panoramas = (db: Queryable, organizationId: string) => q(db).selectFrom('panoramas').selectAll().where('organizationId', '=', organizationId);

export const panoramasRepository = {
  /** The operator surface names only the apartment; its owner is the organization of the new panorama. */
  async apartmentOwner(db: Queryable, apartmentId: string): Promise<string | undefined> {
    return (await q(db).selectFrom('apartments').select('organizationId').where('id', '=', apartmentId).executeTakeFirst())?.organizationId;
  },

  /** jsonb documents go through json(); linkedPanoramaIds is a native uuid[] and goes as the array. */
  insert(db: Queryable, p: NewPanorama): Promise<PanoramaRow> {
    return q(db)
      .insertInto('panoramas')
      .values({ ...p, metadata: json(p.metadata), comments: json(p.comments), portals: json(p.portals), pois: json(p.pois) })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Highest priority first, then oldest first. */
  listByApartment(db: Queryable, organizationId: string, apartmentId: string): Promise<PanoramaRow[]> {
    return panoramas(db, organizationId).where('apartmentId', '=', apartmentId).orderBy('priority', 'desc').orderBy('createdAt').orderBy('id').execute();
  },

  listByIds(db: Queryable, organizationId: string, ids: string[]): Promise<PanoramaRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return panoramas(db, organizationId).where('id', '=', anyUuid(ids)).execute();
  },
};
