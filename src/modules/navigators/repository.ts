import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../../db/client.js';
import { iso } from '../../ids.js';
import type { NavigatorSchema } from './schemas.js';

export interface NavigatorRow {
  id: string;
  organization_id: string;
  reference_id: string;
  reference_type: string;
  type: string;
  seo_title: string | null;
  seo_description: string | null;
  seo_og_image: string | null;
  images: Navigator['images'];
  options: Record<string, unknown>;
  is_preview: boolean;
  created_at: Date;
}

export type Navigator = Static<typeof NavigatorSchema>;

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

export const toNavigator = (row: NavigatorRow): Navigator => ({
  id: row.id,
  referenceId: row.reference_id,
  referenceType: row.reference_type,
  type: row.type,
  seoTitle: row.seo_title,
  seoDescription: row.seo_description,
  seoOgImage: row.seo_og_image,
  images: row.images,
  createdAt: iso(row.created_at)!,
  options: row.options,
  nested: [],
  isPreview: row.is_preview,
});

export const navigatorsRepository = {
  async insertDefault(db: Queryable, n: { id: string; organizationId: string; estateId: string; name: string }): Promise<NavigatorRow> {
    const rows = await db.query<NavigatorRow>(
      `INSERT INTO navigators (id, organization_id, reference_id, reference_type, type, seo_title, options)
       VALUES ($1, $2, $3, 'estate', 'image', $4, $5) RETURNING *`,
      [n.id, n.organizationId, n.estateId, n.name, JSON.stringify(defaultNavigatorOptions(n.name))],
    );
    return rows[0]!;
  },

  async get(db: Queryable, organizationId: string, id: string): Promise<NavigatorRow | undefined> {
    return (await db.query<NavigatorRow>('SELECT * FROM navigators WHERE organization_id = $1 AND id = $2', [organizationId, id]))[0];
  },
};
