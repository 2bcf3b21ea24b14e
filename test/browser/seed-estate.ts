import sharp from 'sharp';
import { STATUSES, call, organizationWithEstate, seedAddons, upload } from './seed.js';

/**
 * The estate of issue 34's "Done means", made through the HTTP API: 2 buildings, 30 homes in every status
 * (ACTIVE, BOOKED, SOLD, HIDDEN), 4 frames (0°, 90°, 180°, 270°) of a 4:3 render (1200 x 900 PNG made
 * with sharp) each with a shape per home at known pixels, the four add-ons, the page enabled. The render
 * is white but for a grey ground, so a screenshot shows where the shapes are drawn.
 */
export interface BuyersEstate {
  key: string;
  estateId: string;
  slug: string;
  navigatorId: string;
  buildings: string[];
  apartments: Array<{ id: string; name: string; status: string; buildingId: string }>;
}

export const RENDER = { width: 1200, height: 900 } as const;
export const HOMES = 30;

/** Home `i`'s rectangle on every frame, in the render's pixels: 6 columns x 5 rows, 100 x 60 px (about 18 px high at 390 px wide: small enough to need the zoom). */
export function homeRect(i: number): { x: number; y: number; w: number; h: number } {
  return { x: 100 + (i % 6) * 180, y: 140 + Math.floor(i / 6) * 140, w: 100, h: 60 };
}

async function renderImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${RENDER.width}" height="${RENDER.height}">
    <rect width="100%" height="100%" fill="#ffffff"/><rect y="840" width="100%" height="60" fill="#9ca3af"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function seedBuyersEstate(base: string): Promise<BuyersEstate> {
  const { key, setup, estateId, navigatorId } = await organizationWithEstate(base, 'Lakeside Homes', 'Lakeside Gardens');
  const second = await call(base, 'POST', '/api/v1/building', key, { name: 'Building B', estateId });
  const buildings = [setup.building.id as string, second.id as string];

  const apartments: BuyersEstate['apartments'] = [];
  for (const [b, buildingId] of buildings.entries()) {
    const specs = Array.from({ length: HOMES / 2 }, (_, j) => {
      const i = b * (HOMES / 2) + j;
      return {
        name: `${b === 0 ? 'A' : 'B'}${String(j + 1).padStart(2, '0')}`,
        status: STATUSES[i % STATUSES.length]!,
        priceCents: 41_000_000 + i * 900_000,
        currency: 'EUR',
        showPrice: true,
        apartmentData: { area: 42 + ((i * 5) % 50), rooms: 1 + (i % 4), floor: Math.floor(j / 3), bathrooms: 1 },
      };
    });
    const bulk = await call(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId, apartments: specs });
    (bulk.ids as string[]).forEach((id, j) => apartments.push({ id, name: specs[j]!.name, status: specs[j]!.status, buildingId }));
  }

  const image = await renderImage();
  for (const angle of [0, 90, 180, 270]) {
    const asset = await upload(base, key, image, 'image/png', `render-${angle}.png`);
    const frame = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle, name: `View ${angle}°` });
    await call(
      base,
      'PUT',
      `/api/v1/navigator/${navigatorId}/images/${frame.id}/shapes`,
      key,
      apartments.map((a, i) => {
        const r = homeRect(i);
        return { name: a.name, referenceType: 'apartment', referenceId: a.id, shape: `M${r.x} ${r.y}h${r.w}v${r.h}h-${r.w}z` };
      }),
    );
  }
  await call(base, 'PATCH', `/api/v1/navigator/${navigatorId}`, key, {
    seoTitle: 'Lakeside Gardens: homes by the lake',
    options: {
      startingAngle: 0,
      favouritesEnabled: true,
      sourceWidth: RENDER.width,
      sourceHeight: RENDER.height,
      overlayWidth: RENDER.width,
      overlayHeight: RENDER.height,
    },
  });
  await seedAddons(base, key, estateId);
  await call(base, 'PUT', `/api/v1/estates/${estateId}/page`, key, { enabled: true });
  const estate = await call(base, 'GET', `/api/v1/estate/${estateId}`, key);
  return { key, estateId, slug: estate.slug as string, navigatorId, buildings, apartments };
}
