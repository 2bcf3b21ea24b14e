import { insertAssetRow } from '../../helpers/asset-rows.js';
import { createBuilding, createEstate } from '../../helpers/factories.js';
import type { ModuleCases, World } from '../types.js';

let angle = 0;
/** Each frame a case creates takes an angle of its own (one frame per angle). */
const nextAngle = () => ++angle % 360;

async function created(w: World, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await w.t.request({ method: 'POST', url, key: w.a.key, body });
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

const image = async (w: World) => (await insertAssetRow(w.t.db, w.a.id, { width: 1920, height: 1080 })).id;
const n = (w: World) => `/api/v1/navigator/${w.ids.navNavigator}`;
const frameUrl = (w: World) => `${n(w)}/images/${w.ids.navFrame}`;

/** A nested navigator for a new building of A's estate: what the DELETE case removes. */
async function nestedNavigator(w: World): Promise<string> {
  const building = await createBuilding(w.t, w.a.key, w.ids.navEstate!);
  return created(w, '/api/v1/navigator', {
    estateId: w.ids.navEstate,
    parentId: w.ids.navNavigator,
    referenceType: 'building',
    referenceId: building.id,
    name: 'Nested',
  });
}

export const navigatorCases: ModuleCases = {
  async prepare(w) {
    const setup = await w.t.request({ method: 'POST', url: '/api/v1/estate/setup', key: w.a.key, body: { name: 'Navigator tenancy' } });
    const body = setup.json() as { estate: { id: string }; building: { id: string }; navigator: { id: string } };
    w.ids.navEstate = body.estate.id;
    w.ids.navBuilding = body.building.id;
    w.ids.navNavigator = body.navigator.id;
    w.ids.navFrame = await created(w, `${n(w)}/images`, { assetId: await image(w), angle: 359 });
  },
  routes: {
    'GET /api/v1/navigator': { foreign: 404, request: (w) => ({ url: `/api/v1/navigator?estateId=${w.ids.navEstate}` }) },
    'POST /api/v1/navigator': {
      foreign: 404,
      request: async (w) => ({ url: '/api/v1/navigator', body: { estateId: (await createEstate(w.t, w.a.key)).id, name: 'First' } }),
    },
    'PATCH /api/v1/navigator/:id': { foreign: 404, request: (w) => ({ url: n(w), body: { seoDescription: 'changed' } }) },
    'DELETE /api/v1/navigator/:id': { foreign: 404, request: async (w) => ({ url: `/api/v1/navigator/${await nestedNavigator(w)}` }) },
    'POST /api/v1/navigator/:id/images': {
      foreign: 404,
      request: async (w) => ({ url: `${n(w)}/images`, body: { assetId: await image(w), angle: nextAngle() } }),
    },
    'PATCH /api/v1/navigator/:id/images/:imageId': { foreign: 404, request: (w) => ({ url: frameUrl(w), body: { name: 'Renamed' } }) },
    'DELETE /api/v1/navigator/:id/images/:imageId': {
      foreign: 404,
      request: async (w) => ({ url: `${n(w)}/images/${await created(w, `${n(w)}/images`, { assetId: await image(w), angle: nextAngle() })}` }),
    },
    'GET /api/v1/navigator/:id/images/:imageId/shapes': { foreign: 404, request: (w) => ({ url: `${frameUrl(w)}/shapes` }) },
    'PUT /api/v1/navigator/:id/images/:imageId/shapes': {
      foreign: 404,
      request: (w) => ({ url: `${frameUrl(w)}/shapes`, body: [{ referenceType: 'building', referenceId: w.ids.navBuilding, shape: 'M0 0L10 10Z' }] }),
    },
    'PUT /api/v1/navigator/:id/images/:imageId/pois': {
      foreign: 404,
      request: (w) => ({ url: `${frameUrl(w)}/pois`, body: [{ x: 1, y: 1, data: { type: 'info' } }] }),
    },
  },
};
