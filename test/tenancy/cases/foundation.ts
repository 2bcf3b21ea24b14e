import { createProject } from '../../helpers/factories.js';
import type { ModuleCases } from '../types.js';

let n = 0;
const fresh = (label: string) => `${label} tenancy ${++n}`;
/** Not in w.ids: the slug lookup is public by design, so its answer is not a leak to B. */
let publicSlug = '';

export const foundationCases: ModuleCases = {
  async prepare(w) {
    const { estate, building, apartment } = await createProject(w.t, w.a.key);
    const setup = await w.t.request({ method: 'POST', url: '/api/v1/estate/setup', key: w.a.key, body: { name: fresh('Setup') } });
    w.ids.estate = estate.id;
    w.ids.building = building.id;
    w.ids.apartment = apartment.id;
    w.ids.navigator = (setup.json() as { navigator: { id: string } }).navigator.id;
    const open = await w.t.request({ method: 'POST', url: '/api/v1/estate', key: w.b.key, body: { name: fresh('Open house') } });
    publicSlug = (open.json() as { slug: string }).slug;
  },
  routes: {
    'POST /api/v1/estate': { foreign: 'isolated', request: () => ({ url: '/api/v1/estate', body: { name: fresh('Estate') } }) },
    'POST /api/v1/estate/setup': { foreign: 'isolated', request: () => ({ url: '/api/v1/estate/setup', body: { name: fresh('Setup') } }) },
    'GET /api/v1/estate': { foreign: 'isolated', request: () => ({ url: '/api/v1/estate' }) },
    'GET /api/v1/estate-slugs/:slug': { foreign: 'isolated', request: () => ({ url: `/api/v1/estate-slugs/${publicSlug}` }) },
    'GET /api/v1/estates/by-slug/:slug': { foreign: 'isolated', request: () => ({ url: `/api/v1/estates/by-slug/${publicSlug}` }) },
    'GET /api/v1/api-keys': { foreign: 'isolated', request: () => ({ url: '/api/v1/api-keys' }) },
    'GET /api/v1/api-keys/current': { foreign: 'isolated', request: () => ({ url: '/api/v1/api-keys/current' }) },
    'POST /api/v1/api-keys': { foreign: 'isolated', request: () => ({ url: '/api/v1/api-keys', body: { name: fresh('key'), scopes: ['read'] } }) },
    'DELETE /api/v1/api-keys/:id': {
      foreign: 404,
      request: async (w) => ({ url: `/api/v1/api-keys/${(await w.t.issueKey(w.a.id, ['read'])).id}` }),
    },
    'GET /api/v1/estate/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/estate/${w.ids.estate}` }) },
    'PATCH /api/v1/estate/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/estate/${w.ids.estate}`, body: { description: 'changed' } }) },
    'GET /api/v1/navigator/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/navigator/${w.ids.navigator}` }) },
    'POST /api/v1/building': { foreign: 404, request: (w) => ({ url: '/api/v1/building', body: { name: fresh('Building'), estateId: w.ids.estate } }) },
    'GET /api/v1/building': { foreign: 404, request: (w) => ({ url: `/api/v1/building?estateId=${w.ids.estate}` }) },
    'GET /api/v1/building/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/building/${w.ids.building}` }) },
    'PATCH /api/v1/building/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/building/${w.ids.building}`, body: { description: 'changed' } }) },
    'POST /api/v1/apartment': { foreign: 404, request: (w) => ({ url: '/api/v1/apartment', body: { name: fresh('Apartment'), buildingId: w.ids.building } }) },
    'POST /api/v1/apartment/bulk': {
      foreign: 404,
      request: (w) => ({ url: '/api/v1/apartment/bulk', body: { buildingId: w.ids.building, apartments: [{ name: fresh('Bulk') }] } }),
    },
    'POST /api/v1/apartment/upsert': {
      foreign: 404,
      request: (w) => ({
        url: '/api/v1/apartment/upsert',
        body: { buildingId: w.ids.building, apartments: [{ externalId: fresh('ext'), name: fresh('Upsert') }] },
      }),
    },
    'PATCH /api/v1/apartment/bulk': {
      foreign: 404,
      request: (w) => ({ url: '/api/v1/apartment/bulk', body: { apartments: [{ id: w.ids.apartment, isPromoted: true }] } }),
    },
    'GET /api/v1/apartment/changes': { foreign: 'isolated', request: () => ({ url: '/api/v1/apartment/changes' }) },
    'GET /api/v1/apartment': { foreign: 'isolated', request: () => ({ url: '/api/v1/apartment' }) },
    'GET /api/v1/apartment/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/apartment/${w.ids.apartment}` }) },
    'PATCH /api/v1/apartment/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/apartment/${w.ids.apartment}`, body: { isPromoted: true } }) },
  },
};
