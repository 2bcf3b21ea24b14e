import sharp from 'sharp';
import { ADMIN_TOKEN } from './server.js';

/**
 * The estate of the browser tier and of the Lighthouse run, made through the HTTP API as a partner
 * would: 3 frames (0°, 120°, 240°; startingAngle 120) with a shape per apartment on each, 22
 * apartments in every status (ACTIVE, BOOKED, SOLD, HIDDEN; some prices hidden by showPrice), floor
 * plans, the four add-ons filled and enabled, and the page enabled. Images are made here with sharp.
 */
export interface Seeded {
  key: string;
  estateId: string;
  slug: string;
  navigatorId: string;
  apartments: Array<{ id: string; name: string; status: string; showPrice: boolean; priceCents: number }>;
}

export const STATUSES = ['ACTIVE', 'BOOKED', 'SOLD', 'HIDDEN'] as const;
export const APARTMENTS = 22;
const FRAME = { width: 1600, height: 900 };

export async function call(base: string, method: string, url: string, key: string, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  // biome-ignore lint/suspicious/noExplicitAny: seeding reads the API's answers loosely
  return (text ? JSON.parse(text) : undefined) as any;
}

export async function upload(base: string, key: string, bytes: Buffer, type: string, name: string): Promise<{ id: string; src: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${base}/api/v1/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`upload ${name} -> ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; src: string };
}

/** A render of the building seen from `angle`: sky, ground, a block with a 6 x 4 grid of windows. */
async function frameImage(angle: number): Promise<Buffer> {
  const shift = Math.round((angle / 360) * 300);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${FRAME.width}" height="${FRAME.height}">
    <rect width="100%" height="100%" fill="#bcd7ee"/><rect y="700" width="100%" height="200" fill="#6c8f4e"/>
    <rect x="${300 + shift}" y="150" width="800" height="560" fill="#d9cbb5" stroke="#5b4b3a" stroke-width="6"/>
    ${Array.from({ length: 24 }, (_, i) => `<rect x="${330 + shift + (i % 6) * 130}" y="${180 + Math.floor(i / 6) * 130}" width="100" height="100" fill="#40566b"/>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** The outline of apartment `i` on a frame: the window block it stands for. */
function outline(i: number, angle: number): string {
  const shift = Math.round((angle / 360) * 300);
  const x = 325 + shift + (i % 6) * 130;
  const y = 175 + Math.floor(i / 6) * 130;
  return `M${x} ${y}h110v110h-110z`;
}

async function photo(hue: number, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="100%" height="100%" fill="hsl(${hue},45%,55%)"/>
    <circle cx="600" cy="400" r="220" fill="hsl(${hue},40%,80%)"/><text x="60" y="740" font-size="64" fill="#fff">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 75 }).toBuffer();
}

/** A one-page PDF (the smallest valid document), for the downloads and the investment files. */
function pdf(title: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    `<< /Length ${`BT /F1 12 Tf 20 100 Td (${title}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 100 Td (${title}) Tj ET\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

/** A new organization (the operator's call) and its estate made by quick setup: the organization's key, the setup's answer. */
export async function organizationWithEstate(base: string, organization: string, estate: string) {
  const admin = await fetch(`${base}/api/v1/admin/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: organization }),
  });
  if (admin.status !== 201) throw new Error(`organization -> ${admin.status} ${await admin.text()}`);
  const key = ((await admin.json()) as { apiKey: string }).apiKey;
  const setup = await call(base, 'POST', '/api/v1/estate/setup', key, { name: estate });
  return { key, setup, estateId: setup.estate.id as string, navigatorId: setup.navigator.id as string };
}

export async function seedEstate(base: string): Promise<Seeded> {
  const { key, setup, estateId, navigatorId } = await organizationWithEstate(base, 'Riverside Developments', 'Riverside Park');

  const plan = await upload(base, key, await photo(30, 'Floor plan'), 'image/jpeg', 'plan.jpg');
  const specs = Array.from({ length: APARTMENTS }, (_, i) => ({
    name: `A${String(i + 1).padStart(2, '0')}`,
    status: STATUSES[i % STATUSES.length]!,
    priceCents: 32_000_000 + i * 1_250_000,
    currency: 'EUR',
    showPrice: i % 5 !== 3,
    isPromoted: i === 4,
    description: `Apartment ${i + 1}: ${1 + (i % 4)} rooms, balcony facing ${i % 2 ? 'west' : 'south'}.`,
    apartmentData: { area: 38 + ((i * 7) % 60), rooms: 1 + (i % 4), floor: Math.floor(i / 6), bathrooms: 1 + (i % 2) },
    floorPlanUrls: i % 3 === 0 ? [plan.src] : [],
    assetsIds: i % 3 === 0 ? [plan.id] : [],
  }));
  const bulk = await call(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: setup.building.id, apartments: specs });
  const ids = bulk.ids as string[];
  const apartments = specs.map((s, i) => ({ id: ids[i]!, name: s.name, status: s.status, showPrice: s.showPrice, priceCents: s.priceCents }));

  for (const angle of [0, 120, 240]) {
    const asset = await upload(base, key, await frameImage(angle), 'image/jpeg', `frame-${angle}.jpg`);
    const frame = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle, name: `View ${angle}°` });
    await call(
      base,
      'PUT',
      `/api/v1/navigator/${navigatorId}/images/${frame.id}/shapes`,
      key,
      apartments.map((a, i) => ({ name: a.name, referenceType: 'apartment', referenceId: a.id, shape: outline(i, angle) })),
    );
  }
  await call(base, 'PATCH', `/api/v1/navigator/${navigatorId}`, key, {
    seoTitle: 'Riverside Park: homes by the river',
    seoDescription: 'Twenty-two apartments by the river: prices, floor plans, the neighbourhood and how to ask about a home.',
    options: {
      startingAngle: 120,
      canFreelyRotate: true,
      compassEnabled: true,
      favouritesEnabled: true,
      northFrameIndex: 0,
      sourceWidth: FRAME.width,
      sourceHeight: FRAME.height,
      overlayWidth: FRAME.width,
      overlayHeight: FRAME.height,
    },
  });

  await seedAddons(base, key, estateId);

  await call(base, 'PUT', `/api/v1/estates/${estateId}/page`, key, { enabled: true });
  const estate = await call(base, 'GET', `/api/v1/estate/${estateId}`, key);
  return { key, estateId, slug: estate.slug as string, navigatorId, apartments };
}

/** The four add-ons filled and enabled (investment, gallery of 6 photos, map with points, downloads); waits for every image's variants. */
export async function seedAddons(base: string, key: string, estateId: string): Promise<void> {
  const e = `/api/v1/estates/${estateId}`;
  // Investment: sanitised HTML and a file.
  const section = await call(base, 'POST', `${e}/investment/sections`, key, {
    title: 'The investment',
    description: '<p>Built to <strong>A+</strong> energy standards, completion in <em>spring 2027</em>.</p><ul><li>Green roofs</li><li>Bike storage</li></ul>',
  });
  const brochure = await upload(base, key, pdf('Brochure'), 'application/pdf', 'brochure.pdf');
  await call(base, 'POST', `${e}/investment/sections/${section.id}/files`, key, { assetId: brochure.id, label: 'Brochure' });
  // Gallery: two sections of photos.
  for (const [s, title] of ['Interiors', 'Surroundings'].entries()) {
    const gs = await call(base, 'POST', `${e}/gallery/sections`, key, { title });
    for (let i = 0; i < 3; i++) {
      const img = await upload(base, key, await photo(s * 120 + i * 30, `${title} ${i + 1}`), 'image/jpeg', `${title}-${i}.jpg`);
      await call(base, 'POST', `${e}/gallery/items`, key, { assetId: img.id, sectionId: gs.id, caption: `${title}, photo ${i + 1}` });
    }
  }
  // Map: centre and points of interest in several categories.
  await call(base, 'PUT', `${e}/map`, key, { centerLat: 52.2297, centerLng: 21.0122, defaultZoom: 15 });
  for (const [category, label, dLat, dLng] of [
    ['TRANSIT', 'Metro station', 0.004, 0.002],
    ['SHOPPING', 'Market hall', -0.003, 0.005],
    ['EDUCATION', 'Primary school', 0.006, -0.004],
    ['PARKS', 'River park', -0.002, -0.006],
    ['FOOD', 'Corner café', 0.001, 0.001],
  ] as const) {
    await call(base, 'POST', `${e}/map/pois`, key, { category, label, lat: 52.2297 + dLat, lng: 21.0122 + dLng });
  }
  // Downloads: a group of files.
  const group = await call(base, 'POST', `${e}/downloads/groups`, key, { title: 'Documents' });
  for (const name of ['Price list', 'Technical standard']) {
    const file = await upload(base, key, pdf(name), 'application/pdf', `${name}.pdf`);
    await call(base, 'POST', `${e}/downloads/groups/${group.id}/items`, key, { assetId: file.id, label: name });
  }
  for (const addon of ['investment', 'gallery', 'map', 'downloads']) await call(base, 'PUT', `${e}/${addon}`, key, { enabled: true });

  // Every image's variants and placeholder are made in the background: the page is measured once they exist.
  for (let i = 0; i < 600; i++) {
    const assets = (await call(base, 'GET', '/api/v1/asset?limit=1000', key)) as Array<{ mimeType: string; placeholder: string | null }>;
    if (assets.every((a) => !a.mimeType.startsWith('image/') || a.placeholder !== null)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
}
