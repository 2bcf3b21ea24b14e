import type { TestApp } from './app.js';
import { insertAssetRow } from './asset-rows.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely by the seed
type Json = any;

async function send(t: TestApp, method: string, url: string, key: string, body?: unknown): Promise<Json> {
  const res = await t.request({ method: method as never, url, key, body });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body ? res.json() : undefined;
}

export const STATUSES = ['ACTIVE', 'BOOKED', 'SOLD', 'HIDDEN'] as const;

/** A hidden apartment's price: a page that shows it in any formatting leaks it (tests look for 9,876,543 etc.). */
export const HIDDEN_PRICE_CENTS = 987_654_300;
/** A price with showPrice false: never on the page either. */
export const UNSHOWN_PRICE_CENTS = 123_456_700;

export interface SeededPage {
  estateId: string;
  slug: string;
  navigatorId: string;
  buildingId: string;
  apartments: Array<{ id: string; name: string; status: string; priceCents: number; showPrice: boolean }>;
  captions: string[];
  pois: string[];
  downloads: string[];
}

/**
 * An estate as the seed describes it: 3 frames, `count` apartments in every status (one with
 * showPrice false, one HIDDEN with a price), a shape per apartment on each frame, and the four add-ons on.
 * Assets are rows (no files): the page only reads their fields.
 */
export async function seedPage(t: TestApp, orgId: string, key: string, count = 22, name = 'Harbour View'): Promise<SeededPage> {
  const setup = await send(t, 'POST', '/api/v1/estate/setup', key, { name, buildingName: 'Tower A', description: 'Homes by the harbour.' });
  const estateId: string = setup.estate.id;
  const navigatorId: string = setup.navigator.id;
  const buildingId: string = setup.building.id;
  const image = async () => (await insertAssetRow(t.db, orgId, { mimeType: 'image/jpeg', width: 1920, height: 1080 })).id;
  const file = async (mimeType: string, sizeBytes: number, assetName: string) =>
    (await insertAssetRow(t.db, orgId, { mimeType, sizeBytes, name: assetName })).id;

  const apartments: SeededPage['apartments'] = [];
  const items = Array.from({ length: count }, (_, i) => {
    const status = i === 1 ? 'HIDDEN' : STATUSES[i % 3]!;
    const priceCents = i === 1 ? HIDDEN_PRICE_CENTS : i === 2 ? UNSHOWN_PRICE_CENTS : 25_000_000 + i * 100_000;
    return {
      name: `Home ${String(i + 1).padStart(4, '0')}`,
      status,
      priceCents,
      showPrice: i !== 2,
      currency: 'EUR',
      externalId: `crm-secret-${i}`,
      apartmentData: { rooms: 1 + (i % 4), area: 40 + i, floor: i % 10 },
    };
  });
  for (let i = 0; i < items.length; i += 1000) {
    const chunk = items.slice(i, i + 1000);
    const res = await send(t, 'POST', '/api/v1/apartment/bulk', key, { buildingId, apartments: chunk });
    res.ids.forEach((id: string, j: number) => {
      const item = chunk[j]!;
      apartments.push({ id, name: item.name, status: item.status, priceCents: item.priceCents, showPrice: item.showPrice });
    });
  }
  // A price change, so the apartment has a history the page must not show.
  await send(t, 'PATCH', `/api/v1/apartment/${apartments[0]!.id}`, key, { priceCents: 25_000_000 });
  apartments[0]!.priceCents = 25_000_000;

  for (const angle of [0, 120, 240]) {
    const frame = await send(t, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, {
      assetId: await image(),
      angle,
      name: `View from ${angle}°`,
      isMarketingStop: angle === 120,
      highlightLabel: angle === 120 ? 'Sea view' : undefined,
    });
    const shapes = apartments.map((a, i) => ({
      referenceType: 'apartment',
      referenceId: a.id,
      shape: `M${(i % 40) * 40 + 10} ${Math.floor(i / 40) * 10 + 10} h30 v8 h-30 Z`,
    }));
    await send(t, 'PUT', `/api/v1/navigator/${navigatorId}/images/${frame.id}/shapes`, key, shapes);
  }
  await send(t, 'PATCH', `/api/v1/navigator/${navigatorId}`, key, {
    seoTitle: `${name}: homes by the sea`,
    seoDescription: 'Apartments with a view of the harbour.',
    options: { startingAngle: 120, customTheme: { '--apartment-active-fill': '#22c55e', '--apartment-hidden-fill': 'rgb(100 100 100 / 50%)' } },
  });

  const e = `/api/v1/estates/${estateId}`;
  const captions = ['The lobby', 'Roof terrace <at dusk>'];
  await send(t, 'PUT', `${e}/gallery`, key, { enabled: true });
  const section = await send(t, 'POST', `${e}/gallery/sections`, key, { title: 'Interiors' });
  for (const caption of captions) await send(t, 'POST', `${e}/gallery/items`, key, { assetId: await image(), caption, sectionId: section.id });

  await send(t, 'PUT', `${e}/map`, key, { enabled: true, centerLat: 54.35, centerLng: 18.65, tileStyle: 'OSM' });
  const pois = ['Central Station', 'Fish Market', 'City Park'];
  for (const [i, label] of pois.entries()) {
    await send(t, 'POST', `${e}/map/pois`, key, { category: ['TRANSIT', 'FOOD', 'PARKS'][i], label, lat: 54.35 + 0.004 * (i + 1), lng: 18.65 - 0.003 * i });
  }

  await send(t, 'PUT', `${e}/downloads`, key, { enabled: true });
  const group = await send(t, 'POST', `${e}/downloads/groups`, key, { title: 'Brochures' });
  const downloads = ['Price list', 'Technical standard'];
  for (const label of downloads) {
    await send(t, 'POST', `${e}/downloads/groups/${group.id}/items`, key, { assetId: await file('application/pdf', 1_572_864, `${label}.pdf`), label });
  }

  await send(t, 'PUT', `${e}/investment`, key, { enabled: true });
  const inv = await send(t, 'POST', `${e}/investment/sections`, key, {
    title: 'Location',
    description: '<p>Close to the <strong>sea</strong>.</p><script>alert(1)</script>',
  });
  await send(t, 'POST', `${e}/investment/sections/${inv.id}/files`, key, { assetId: await file('application/pdf', 2048, 'plan.pdf'), label: 'Site plan' });

  return { estateId, slug: setup.estate.slug, navigatorId, buildingId, apartments, captions, pois, downloads };
}

/** An urlencoded form body as the page's form posts it (a field given an array repeats, as checkboxes do). */
export function formBody(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const value of [v].flat()) params.append(k, value);
  return params.toString();
}
