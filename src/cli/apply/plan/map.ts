/** The map add-on: its fields and logo, and its points of interest by label. */
import { must } from '../../../../clients/typescript/src/index.js';
import type { Manifest } from '../manifest.js';
import { type PlanContext, fieldChanges, match, planContainer, planEnabled, show } from './core.js';

type MapAddon = NonNullable<NonNullable<Manifest['addons']>['map']>;

export function planMap(ctx: PlanContext, map: MapAddon): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.map;
  const declared: Record<string, unknown> = {
    enabled: map.enabled ?? true,
    centerLat: map.center?.lat,
    centerLng: map.center?.lng,
    defaultZoom: map.defaultZoom,
    tileStyle: map.tileStyle,
    defaultViewLat: map.defaultView?.lat,
    defaultViewLng: map.defaultView?.lng,
  };
  const { details, changed } = fieldChanges(declared, { ...(doc ?? { enabled: false }) });
  let logoChanged = false;
  if (map.logo !== undefined) {
    const logoId = ctx.assetIdNow(map.logo);
    if (logoId === undefined || logoId !== doc?.logoAssetId) {
      details.push(`logo: ${show(doc?.logoAsset?.name ?? null)} -> ${show(map.logo)}`);
      logoChanged = true;
    }
  }
  if (details.length > 0) {
    ctx.change('~', 'update map', details);
    ctx.act('update map', async () => {
      const body = { ...changed, ...(logoChanged && map.logo !== undefined ? { logoAssetId: ctx.ids.asset(map.logo) } : {}) };
      await must(api.PUT('/api/v1/estates/{estateId}/map', { params: { path: estate() }, body }));
    });
  }
  planContainer(ctx, {
    what: 'map point',
    container: 'map points',
    current: doc?.pois ?? [],
    declared: map.pois ?? [],
    keyOf: (p) => p.label,
    keyWanted: (d) => d.label,
    labelOf: (d) => show(d.label),
    short: (d) => show(d.label),
    labelOfCurrent: (p) => show(p.label),
    diff: (d, p) => fieldChanges({ category: d.category, lat: d.lat, lng: d.lng, customDistanceLabel: d.customDistanceLabel }, p),
    create: async (d) => (await must(api.POST('/api/v1/estates/{estateId}/map/pois', { params: { path: estate() }, body: d }))).id,
    update: async (poiId, body) => {
      await must(api.PATCH('/api/v1/estates/{estateId}/map/pois/{poiId}', { params: { path: { ...estate(), poiId } }, body }));
    },
    remove: async (poiId) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/map/pois/{poiId}', { params: { path: { ...estate(), poiId } } }));
    },
    readOrder: async () => (await must(api.GET('/api/v1/estates/{estateId}/map', { params: { path: estate() } }))).pois.map((p) => p.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/map/pois/order', { params: { path: estate() }, body: { orderedIds } }));
    },
  });
}
