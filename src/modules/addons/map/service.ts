import type { Queryable } from '../../../db/client.js';
import { notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { AddonService } from '../addon-service.js';
import { requireAddonAsset, requireImage } from '../assets.js';
import { type SiblingSet, compact, nextPosition, placeAt, reorder } from '../ordering.js';
import { touchAddon } from '../state.js';
import { addonWrite, requireChild, unprocessableField } from '../write.js';
import { TILES, type TileStyle, type Tiles, distanceLabel, haversineMeters } from './geo.js';
import { type MapConfigFields, type MapDocRow, type PoiFields, type PoiJson, mapRepository as repo } from './repository.js';

export interface Poi extends PoiJson {
  distanceMeters: number | null;
  distanceLabel: string | null;
}

export interface MapDocument {
  enabled: boolean;
  centerLat: number | null;
  centerLng: number | null;
  defaultZoom: number | null;
  tileStyle: string | null;
  defaultViewLat: number | null;
  defaultViewLng: number | null;
  logoAssetId: string | null;
  logoAsset: unknown;
  tiles: Tiles | null;
  pois: Poi[];
}

type Center = { lat: number; lng: number } | null;

function withDistance(poi: PoiJson, center: Center): Poi {
  const meters = center ? Math.round(haversineMeters(center.lat, center.lng, poi.lat, poi.lng)) : null;
  return { ...poi, distanceMeters: meters, distanceLabel: poi.customDistanceLabel ?? (meters === null ? null : distanceLabel(meters)) };
}

function shape(row: MapDocRow): MapDocument {
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

export type MapInput = MapConfigFields & { enabled?: boolean };
type PoiInput = PoiFields & { order?: number };

export class MapService extends AddonService<MapDocument> {
  readonly kind = 'map' as const;
  empty(): MapDocument {
    return shape({ enabled: false, version: 0, config: null, pois: [] });
  }

  async build(db: Queryable, organizationId: string, estateId: string) {
    const row = await repo.document(db, organizationId, estateId, this.srcPrefix);
    return { doc: shape(row), version: row.version };
  }

  private pois(organizationId: string, estateId: string): SiblingSet {
    return { table: 'map_pois', organizationId, estateId };
  }

  private async center(tx: Queryable, organizationId: string, estateId: string): Promise<Center> {
    const c = await repo.config(tx, organizationId, estateId);
    return c && c.center_lat !== null && c.center_lng !== null ? { lat: c.center_lat, lng: c.center_lng } : null;
  }

  /** Creates the one configuration or changes the fields sent; `{enabled}` alone is valid. */
  put(organizationId: string, estateId: string, input: MapInput): Promise<MapDocument> {
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
          ['centerLat', 'centerLng', pick(fields.centerLat, current?.center_lat), pick(fields.centerLng, current?.center_lng)],
          ['defaultViewLat', 'defaultViewLng', pick(fields.defaultViewLat, current?.default_view_lat), pick(fields.defaultViewLng, current?.default_view_lng)],
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

  createPoi(organizationId: string, estateId: string, input: Required<Pick<PoiInput, 'category' | 'label' | 'lat' | 'lng'>> & PoiInput) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const set = this.pois(organizationId, estateId);
      const id = newId();
      await repo.insertPoi(tx, organizationId, {
        id,
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

  updatePoi(organizationId: string, estateId: string, poiId: string, input: PoiInput) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const poi = await requireChild<{ id: string }>(tx, 'map_pois', 'Point of interest', organizationId, estateId, poiId);
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
      const poi = await requireChild<{ id: string }>(tx, 'map_pois', 'Point of interest', organizationId, estateId, poiId);
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
