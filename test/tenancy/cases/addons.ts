import { insertAssetRow } from '../../helpers/asset-rows.js';
import { createEstate } from '../../helpers/factories.js';
import type { CaseRequest, ModuleCases, RouteCase, World } from '../types.js';

const P = '/api/v1/estates/:estateId';

async function created(w: World, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await w.t.request({ method: 'POST', url, key: w.a.key, body });
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

// biome-ignore lint/suspicious/noExplicitAny: the representation is read loosely to collect sibling ids
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
    w.ids.investmentSection = await created(w, `${e(w)}/investment/sections`, { title: 'Tenancy', description: '<p>x</p>' });
    w.ids.investmentFile = await created(w, `${e(w)}/investment/sections/${w.ids.investmentSection}/files`, { assetId: await image(w, 'application/pdf') });
    w.ids.poi = await created(w, `${e(w)}/map/pois`, { category: 'FOOD', label: 'Cafe', lat: 1, lng: 1 });
    w.ids.downloadsGroup = await created(w, `${e(w)}/downloads/groups`, { title: 'Tenancy' });
    w.ids.downloadsItem = await created(w, `${e(w)}/downloads/groups/${w.ids.downloadsGroup}/items`, { assetId: await image(w, 'application/zip') });
  },
  routes: {
    // gallery
    [`GET ${P}/gallery`]: route('isolated', (w) => ({ url: `${e(w)}/gallery` })),
    [`PUT ${P}/gallery`]: route(404, (w) => ({ url: `${e(w)}/gallery`, body: { enabled: false } })),
    [`POST ${P}/gallery/sections`]: route(404, (w) => ({ url: `${e(w)}/gallery/sections`, body: { title: 'More' } })),
    [`PUT ${P}/gallery/sections/order`]: route(404, async (w) => ({
      url: `${e(w)}/gallery/sections/order`,
      body: { orderedIds: ids((await read(w, 'gallery')).sections) },
    })),
    [`PATCH ${P}/gallery/sections/:sectionId`]: route(404, (w) => ({ url: `${e(w)}/gallery/sections/${w.ids.gallerySection}`, body: { title: 'Renamed' } })),
    [`DELETE ${P}/gallery/sections/:sectionId`]: route(404, async (w) => ({
      url: `${e(w)}/gallery/sections/${await created(w, `${e(w)}/gallery/sections`, { title: 'Gone' })}`,
    })),
    [`PUT ${P}/gallery/sections/:sectionId/items/order`]: route(404, async (w) => {
      const section = (await read(w, 'gallery')).sections.find((s: { id: string }) => s.id === w.ids.gallerySection);
      return { url: `${e(w)}/gallery/sections/${w.ids.gallerySection}/items/order`, body: { orderedIds: ids(section.items) } };
    }),
    [`POST ${P}/gallery/items`]: route(404, async (w) => ({ url: `${e(w)}/gallery/items`, body: { assetId: await image(w) } })),
    [`PUT ${P}/gallery/items/order`]: route(404, async (w) => ({
      url: `${e(w)}/gallery/items/order`,
      body: { orderedIds: ids((await read(w, 'gallery')).items) },
    })),
    [`PATCH ${P}/gallery/items/:itemId`]: route(404, (w) => ({ url: `${e(w)}/gallery/items/${w.ids.galleryItem}`, body: { caption: 'Changed' } })),
    [`DELETE ${P}/gallery/items/:itemId`]: route(404, async (w) => ({
      url: `${e(w)}/gallery/items/${await created(w, `${e(w)}/gallery/items`, { assetId: await image(w) })}`,
    })),

    // investment
    [`GET ${P}/investment`]: route('isolated', (w) => ({ url: `${e(w)}/investment` })),
    [`PUT ${P}/investment`]: route(404, (w) => ({ url: `${e(w)}/investment`, body: { enabled: false } })),
    [`POST ${P}/investment/sections`]: route(404, (w) => ({ url: `${e(w)}/investment/sections`, body: { title: 'More' } })),
    [`PUT ${P}/investment/sections/order`]: route(404, async (w) => ({
      url: `${e(w)}/investment/sections/order`,
      body: { orderedIds: ids((await read(w, 'investment')).sections) },
    })),
    [`PATCH ${P}/investment/sections/:sectionId`]: route(404, (w) => ({
      url: `${e(w)}/investment/sections/${w.ids.investmentSection}`,
      body: { title: 'Renamed' },
    })),
    [`DELETE ${P}/investment/sections/:sectionId`]: route(404, async (w) => ({
      url: `${e(w)}/investment/sections/${await created(w, `${e(w)}/investment/sections`, { title: 'Gone' })}`,
    })),
    [`POST ${P}/investment/sections/:sectionId/files`]: route(404, async (w) => ({
      url: `${e(w)}/investment/sections/${w.ids.investmentSection}/files`,
      body: { assetId: await image(w, 'application/pdf'), label: 'Doc' },
    })),
    [`PUT ${P}/investment/sections/:sectionId/files/order`]: route(404, async (w) => {
      const section = (await read(w, 'investment')).sections.find((s: { id: string }) => s.id === w.ids.investmentSection);
      return { url: `${e(w)}/investment/sections/${w.ids.investmentSection}/files/order`, body: { orderedIds: ids(section.files) } };
    }),
    [`PATCH ${P}/investment/sections/:sectionId/files/:fileId`]: route(404, (w) => ({
      url: `${e(w)}/investment/sections/${w.ids.investmentSection}/files/${w.ids.investmentFile}`,
      body: { label: 'Relabelled' },
    })),
    [`DELETE ${P}/investment/sections/:sectionId/files/:fileId`]: route(404, async (w) => {
      const url = `${e(w)}/investment/sections/${w.ids.investmentSection}/files`;
      return { url: `${url}/${await created(w, url, { assetId: await image(w, 'application/pdf') })}` };
    }),

    // map
    [`GET ${P}/map`]: route('isolated', (w) => ({ url: `${e(w)}/map` })),
    [`PUT ${P}/map`]: route(404, (w) => ({ url: `${e(w)}/map`, body: { enabled: false } })),
    [`DELETE ${P}/map`]: route(404, async (w) => {
      const other = (await createEstate(w.t, w.a.key)).id;
      await created(w, `/api/v1/estates/${other}/map/pois`, { category: 'PARKS', label: 'Park', lat: 1, lng: 1 });
      return { url: `/api/v1/estates/${other}/map` };
    }),
    [`POST ${P}/map/pois`]: route(404, (w) => ({ url: `${e(w)}/map/pois`, body: { category: 'TRANSIT', label: 'Stop', lat: 1, lng: 1 } })),
    [`PUT ${P}/map/pois/order`]: route(404, async (w) => ({ url: `${e(w)}/map/pois/order`, body: { orderedIds: ids((await read(w, 'map')).pois) } })),
    [`PATCH ${P}/map/pois/:poiId`]: route(404, (w) => ({ url: `${e(w)}/map/pois/${w.ids.poi}`, body: { label: 'Renamed' } })),
    [`DELETE ${P}/map/pois/:poiId`]: route(404, async (w) => ({
      url: `${e(w)}/map/pois/${await created(w, `${e(w)}/map/pois`, { category: 'OTHER', label: 'Gone', lat: 1, lng: 1 })}`,
    })),

    // downloads
    [`GET ${P}/downloads`]: route('isolated', (w) => ({ url: `${e(w)}/downloads` })),
    [`PUT ${P}/downloads`]: route(404, (w) => ({ url: `${e(w)}/downloads`, body: { enabled: false } })),
    [`POST ${P}/downloads/groups`]: route(404, (w) => ({ url: `${e(w)}/downloads/groups`, body: { title: 'More' } })),
    [`PUT ${P}/downloads/groups/order`]: route(404, async (w) => ({
      url: `${e(w)}/downloads/groups/order`,
      body: { orderedIds: ids((await read(w, 'downloads')).groups) },
    })),
    [`PATCH ${P}/downloads/groups/:groupId`]: route(404, (w) => ({ url: `${e(w)}/downloads/groups/${w.ids.downloadsGroup}`, body: { title: 'Renamed' } })),
    [`DELETE ${P}/downloads/groups/:groupId`]: route(404, async (w) => ({
      url: `${e(w)}/downloads/groups/${await created(w, `${e(w)}/downloads/groups`, { title: 'Gone' })}`,
    })),
    [`POST ${P}/downloads/groups/:groupId/items`]: route(404, async (w) => ({
      url: `${e(w)}/downloads/groups/${w.ids.downloadsGroup}/items`,
      body: { assetId: await image(w, 'application/pdf') },
    })),
    [`PUT ${P}/downloads/groups/:groupId/items/order`]: route(404, async (w) => {
      const group = (await read(w, 'downloads')).groups.find((g: { id: string }) => g.id === w.ids.downloadsGroup);
      return { url: `${e(w)}/downloads/groups/${w.ids.downloadsGroup}/items/order`, body: { orderedIds: ids(group.items) } };
    }),
    [`PATCH ${P}/downloads/groups/:groupId/items/:itemId`]: route(404, (w) => ({
      url: `${e(w)}/downloads/groups/${w.ids.downloadsGroup}/items/${w.ids.downloadsItem}`,
      body: { label: 'Relabelled' },
    })),
    [`DELETE ${P}/downloads/groups/:groupId/items/:itemId`]: route(404, async (w) => {
      const url = `${e(w)}/downloads/groups/${w.ids.downloadsGroup}/items`;
      return { url: `${url}/${await created(w, url, { assetId: await image(w) })}` };
    }),
  },
};
