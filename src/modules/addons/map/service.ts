import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../../../db/client.js';
import { notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { AddonService } from '../addon-service.js';
import { requireAddonAsset, requireImage } from '../assets.js';
import { type SiblingSet, compact, nextPosition, placeAt, reorder } from '../ordering.js';
import { touchAddon } from '../state.js';
import { addonWrite, requireChild, unprocessableField } from '../write.js';
import { TILES, type TileStyle, distanceLabel, haversineMeters } from './geo.js';
import { mapRepository as repo } from './repository.js';
import type { CreatePoiBody, MapDocument, Poi, PutMapBody, UpdatePoiBody } from './schemas.js';

/** A point of interest as stored: everything but the distances, which depend on the map centre. */
type StoredPoi = Omit<Poi, 'distanceMeters' | 'distanceLabel'>;

type Center = { lat: number; lng: number } | null;

/** A point of interest with its distance from the centre (none without one), the custom label taking precedence. */
function withDistance(poi: StoredPoi, center: Center): Poi {
  const meters = center ? Math.round(haversineMeters(center.lat, center.lng, poi.lat, poi.lng)) : null;
  return { ...poi, distanceMeters: meters, distanceLabel: poi.customDistanceLabel ?? (meters === null ? null : distanceLabel(meters)) };
}

/**
 * The map document from its one-statement read: the configuration flattened with nulls while there
 * is none, the tile source of its style, and every point's distance from the centre.
 */
function shape(row: Awaited<ReturnType<typeof repo.document>>): MapDocument {
  const c = row.config;
  const center = c && c.centerLat !== null && c.centerLng !== null ? { lat: c.centerLat, lng: c.centerLng } : null;
  return {
    enabled: row.enabled,
    centerLat: c?.centerLat ?? null,
    centerLng: c?.centerLng ?? null,
    defaultZoom: c?.defaultZoom ?? null,
    tileStyle: c?.tileStyle ?? null,
    defaultViewLat: c?.defaultViewLat ?? null,
    defaultViewLng: c?.defaultViewLng ?? null,
    logoAssetId: c?.logoAssetId ?? null,
    logoAsset: c?.logoAsset ?? null,
    tiles: c ? (TILES[c.tileStyle as TileStyle] ?? null) : null,
    pois: row.pois.map((p) => withDistance(p, center)),
  };
}

export class MapService extends AddonService<MapDocument> {
  readonly kind = 'map' as const;
  empty(): MapDocument {
    return shape({ enabled: false, version: 0, editVersion: 0, config: null, pois: [] });
  }

  async build(db: Queryable, organizationId: string, estateId: string) {
    const row = await repo.document(db, organizationId, estateId, this.srcPrefix);
    return { doc: shape(row), version: row.version, editVersion: row.editVersion };
  }

  private pois(organizationId: string, estateId: string): SiblingSet {
    return { table: 'mapPois', organizationId, estateId };
  }

  private async center(tx: Queryable, organizationId: string, estateId: string): Promise<Center> {
    const c = await repo.config(tx, organizationId, estateId);
    return c && c.centerLat !== null && c.centerLng !== null ? { lat: c.centerLat, lng: c.centerLng } : null;
  }

  /** Creates the one configuration or changes the fields sent; `{enabled}` alone is valid. */
  put(organizationId: string, estateId: string, input: Static<typeof PutMapBody>): Promise<MapDocument> {
    const { enabled, ...fields } = input;
    return addonWrite(
      this.db,
      organizationId,
      estateId,
      this.kind,
      async (tx) => {
        if (fields.logoAssetId) requireImage(await requireAddonAsset(tx, organizationId, fields.logoAssetId), 'logoAssetId');
        if (fields.logoAssetId) fields.logoAssetId = fields.logoAssetId.toLowerCase();
        const current = await repo.config(tx, organizationId, estateId);
        const pick = (sent: number | null | undefined, stored: number | null | undefined) => (sent === undefined ? (stored ?? null) : sent);
        for (const [lat, lng, a, b] of [
          ['centerLat', 'centerLng', pick(fields.centerLat, current?.centerLat), pick(fields.centerLng, current?.centerLng)],
          ['defaultViewLat', 'defaultViewLng', pick(fields.defaultViewLat, current?.defaultViewLat), pick(fields.defaultViewLng, current?.defaultViewLng)],
        ] as const) {
          if ((a === null) !== (b === null)) throw unprocessableField(`${lat}, ${lng}`, 'must be set (or cleared) together');
        }
        await repo.upsertConfig(tx, organizationId, estateId, fields);
        return (await this.build(tx, organizationId, estateId)).doc;
      },
      enabled,
    );
  }

  /** Removes the configuration and every point of interest; the add-on is off afterwards. */
  remove(organizationId: string, estateId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      await repo.deleteAll(tx, organizationId, estateId);
      await touchAddon(tx, organizationId, estateId, this.kind, false);
    });
  }

  createPoi(organizationId: string, estateId: string, input: Static<typeof CreatePoiBody>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const set = this.pois(organizationId, estateId);
      const id = newId();
      await repo.insertPoi(tx, {
        id,
        organizationId,
        estateId,
        category: input.category,
        label: input.label.trim(),
        lat: input.lat,
        lng: input.lng,
        customDistanceLabel: input.customDistanceLabel?.trim() || null,
        position: await nextPosition(tx, set),
      });
      await placeAt(tx, set, id, input.order);
      return this.poiOut(tx, organizationId, estateId, id);
    });
  }

  updatePoi(organizationId: string, estateId: string, poiId: string, input: Static<typeof UpdatePoiBody>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const poi = await requireChild(tx, 'mapPois', 'Point of interest', organizationId, estateId, poiId);
      const { order, ...fields } = input;
      if (fields.label !== undefined) fields.label = fields.label.trim();
      if (typeof fields.customDistanceLabel === 'string') fields.customDistanceLabel = fields.customDistanceLabel.trim() || null;
      await repo.updatePoi(tx, organizationId, poi.id, fields);
      if (order !== undefined) await placeAt(tx, this.pois(organizationId, estateId), poi.id, order);
      return this.poiOut(tx, organizationId, estateId, poi.id);
    });
  }

  deletePoi(organizationId: string, estateId: string, poiId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const poi = await requireChild(tx, 'mapPois', 'Point of interest', organizationId, estateId, poiId);
      await repo.deletePoi(tx, organizationId, poi.id);
      await compact(tx, this.pois(organizationId, estateId));
    });
  }

  orderPois(organizationId: string, estateId: string, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      await reorder(tx, this.pois(organizationId, estateId), orderedIds, 'Point of interest');
      return (await this.build(tx, organizationId, estateId)).doc.pois;
    });
  }

  private async poiOut(tx: Queryable, organizationId: string, estateId: string, id: string): Promise<Poi> {
    const poi = await repo.poi(tx, organizationId, estateId, id);
    if (!poi) throw notFound('Point of interest', id);
    return withDistance(poi, await this.center(tx, organizationId, estateId));
  }
}
