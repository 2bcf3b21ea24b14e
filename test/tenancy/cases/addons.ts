import { insertAssetRow } from '../../helpers/asset-rows.js';
import { createEstate } from '../../helpers/factories.js';
import type { CaseRequest, ModuleCases, RouteCase, World } from '../types.js';

const P = '/api/v1/estates/:estateId';

async function created(w: World, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await w.t.request({ method: 'POST', url, key: w.a.key, body });
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

async function read(w: World, addon: string): Promise<any> {
  return (await w.t.request({ method: 'GET', url: `/api/v1/estates/${w.ids.addonEstate}/${addon}`, key: w.a.key })).json();
}

const image = async (w: World, mimeType = 'image/png') => (await insertAssetRow(w.t.db, w.a.id, { mimeType })).id;
const e = (w: World) => `/api/v1/estates/${w.ids.addonEstate}`;
const route = (foreign: RouteCase['foreign'], request: (w: World) => CaseRequest | Promise<CaseRequest>): RouteCase => ({ foreign, request });
const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

/**
 * A's add-ons stay off (the enable cases send `enabled: false`), so the public reads with B's key
 * answer the empty public view: 'isolated', never A's ids.
 */
export const addonCases: ModuleCases = {
  async prepare(w) {
    w.ids.addonEstate = (await createEstate(w.t, w.a.key)).id;
    w.ids.gallerySection = await created(w, `${e(w)}/gallery/sections`, { title: 'Tenancy' });
    w.ids.galleryItem = await created(w, `${e(w)}/gallery/items`, { assetId: await image(w), sectionId: w.ids.gallerySection });
  },
  routes: {
    // gallery
    [`GET ${P}/gallery`]: route('isolated', (w) => ({ url: `${e(w)}/gallery` })),
    [`PUT ${P}/gallery`]: route(404, (w) => ({ url: `${e(w)}/gallery`, body: { enabled: false } })),
    [`POST ${P}/gallery/sections`]: route(404, (w) => ({ url: `${e(w)}/gallery/sections`, body: { title: 'More' } })),
    [`PUT ${P}/gallery/sections/order`]: route(404, async (w) => ({ url: `${e(w)}/gallery/sections/order`, body: { orderedIds: ids((await read(w, 'gallery')).sections) } })),
    [`PATCH ${P}/gallery/sections/:sectionId`]: route(404, (w) => ({ url: `${e(w)}/gallery/sections/${w.ids.gallerySection}`, body: { title: 'Renamed' } })),
    [`DELETE ${P}/gallery/sections/:sectionId`]: route(404, async (w) => ({ url: `${e(w)}/gallery/sections/${await created(w, `${e(w)}/gallery/sections`, { title: 'Gone' })}` })),
    [`PUT ${P}/gallery/sections/:sectionId/items/order`]: route(404, async (w) => {
      const section = (await read(w, 'gallery')).sections.find((s: { id: string }) => s.id === w.ids.gallerySection);
      return { url: `${e(w)}/gallery/sections/${w.ids.gallerySection}/items/order`, body: { orderedIds: ids(section.items) } };
    }),
    [`POST ${P}/gallery/items`]: route(404, async (w) => ({ url: `${e(w)}/gallery/items`, body: { assetId: await image(w) } })),
    [`PUT ${P}/gallery/items/order`]: route(404, async (w) => ({ url: `${e(w)}/gallery/items/order`, body: { orderedIds: ids((await read(w, 'gallery')).items) } })),
    [`PATCH ${P}/gallery/items/:itemId`]: route(404, (w) => ({ url: `${e(w)}/gallery/items/${w.ids.galleryItem}`, body: { caption: 'Changed' } })),
    [`DELETE ${P}/gallery/items/:itemId`]: route(404, async (w) => ({ url: `${e(w)}/gallery/items/${await created(w, `${e(w)}/gallery/items`, { assetId: await image(w) })}` })),
  },
};
