import type { Selectable } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { json, q } from '../../db/query.js';
import type { Navigators } from '../../db/schema.js';
import type { Navigator } from './schemas.js';

export type NavigatorRow = Selectable<Navigators>;

export type { Navigator };

/** The options a quick-setup navigator starts with: a plain 16:9 still image with the usual panels. */
export function defaultNavigatorOptions(name: string): Record<string, unknown> {
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

/** The API shape of a stored navigator: without the organization; `nested` navigators are not stored (always []). */
export const toNavigator = ({ organizationId: _, ...row }: NavigatorRow): Navigator => ({ ...row, nested: [] });

export const navigatorsRepository = {
  insertDefault(db: Queryable, n: { id: string; organizationId: string; estateId: string; name: string }): Promise<NavigatorRow> {
    return q(db)
      .insertInto('navigators')
      .values({
        id: n.id,
        organizationId: n.organizationId,
        referenceId: n.estateId,
        referenceType: 'estate',
        type: 'image',
        seoTitle: n.name,
        options: json(defaultNavigatorOptions(n.name)),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  get(db: Queryable, organizationId: string, id: string): Promise<NavigatorRow | undefined> {
    return q(db).selectFrom('navigators').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  },
};
