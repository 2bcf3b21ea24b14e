import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queryable } from '../../src/db/client.js';

/**
 * Every creating route of the partner and public surface, as a real client sends it over HTTP, with
 * where its records are counted: each create carries a marker (unique per request, also its
 * Idempotency-Key) in a text column, so the rows one logical operation made can be counted from the
 * database. Used by the crash tests and bench/idempotency-kills.ts.
 */

/** A 1x1 PNG: real image bytes the gallery accepts. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

/** Apartments one keyed bulk create makes. */
const BULK_SIZE = 3;

export interface Seed {
  key: string;
  estateId: string;
  buildingId: string;
  investmentSectionId: string;
  downloadsGroupId: string;
  imageAssetId: string;
  /** A URL the server may download an image from (ALLOW_PRIVATE_URLS=true). */
  remoteSrc: string;
}

export interface KeyedRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface KeyedCreate {
  route: string;
  table: string;
  column: string;
  /** Records one create makes under its marker. */
  rows: number;
  request(seed: Seed, marker: string): KeyedRequest;
  /** The id of the created record in the answer (undefined: the answer names none, as a bulk create). */
  idOf(body: Record<string, unknown>): string | undefined;
}

const json = (seed: Seed, url: string, body: unknown, auth = true): KeyedRequest => ({
  url,
  headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${seed.key}` } : {}) },
  body: JSON.stringify(body),
});

function multipart(seed: Seed, name: string): KeyedRequest {
  const boundary = `----keyed${name.replace(/[^a-z0-9]/gi, '')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="room.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    url: '/api/v1/asset/upload',
    headers: { authorization: `Bearer ${seed.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
    body,
  };
}

const id = (body: Record<string, unknown>) => body.id as string | undefined;
const addon = (seed: Seed, path: string) => `/api/v1/estates/${seed.estateId}/${path}`;

export const KEYED_CREATES: KeyedCreate[] = [
  { route: 'POST /api/v1/estate', table: 'estates', column: 'name', rows: 1, idOf: id, request: (s, m) => json(s, '/api/v1/estate', { name: m }) },
  {
    route: 'POST /api/v1/estate/setup',
    table: 'estates',
    column: 'name',
    rows: 1,
    idOf: (b) => (b.estate as { id: string } | undefined)?.id,
    request: (s, m) => json(s, '/api/v1/estate/setup', { name: m }),
  },
  {
    route: 'POST /api/v1/building',
    table: 'buildings',
    column: 'name',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, '/api/v1/building', { name: m, estateId: s.estateId }),
  },
  {
    route: 'POST /api/v1/apartment',
    table: 'apartments',
    column: 'name',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, '/api/v1/apartment', { name: m, buildingId: s.buildingId }),
  },
  {
    route: 'POST /api/v1/apartment/bulk',
    table: 'apartments',
    column: 'name',
    rows: BULK_SIZE,
    idOf: () => undefined,
    request: (s, m) =>
      json(s, '/api/v1/apartment/bulk', { buildingId: s.buildingId, apartments: Array.from({ length: BULK_SIZE }, (_, i) => ({ name: `${m} #${i}` })) }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/inquiries',
    table: 'inquiries',
    column: 'name',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, `/api/v1/estates/${s.estateId}/inquiries`, { name: m, email: 'prospect@example.com' }, false),
  },
  { route: 'POST /api/v1/asset/upload', table: 'assets', column: 'name', rows: 1, idOf: id, request: (s, m) => multipart(s, m) },
  {
    route: 'POST /api/v1/asset',
    table: 'assets',
    column: 'name',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, '/api/v1/asset', { src: s.remoteSrc, name: m }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/investment/sections',
    table: 'investment_sections',
    column: 'title',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, 'investment/sections'), { title: m }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/investment/sections/:sectionId/files',
    table: 'investment_files',
    column: 'label',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, `investment/sections/${s.investmentSectionId}/files`), { assetId: s.imageAssetId, label: m }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/gallery/sections',
    table: 'gallery_sections',
    column: 'title',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, 'gallery/sections'), { title: m }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/gallery/items',
    table: 'gallery_items',
    column: 'caption',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, 'gallery/items'), { assetId: s.imageAssetId, caption: m }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/map/pois',
    table: 'map_pois',
    column: 'label',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, 'map/pois'), { category: 'SHOPPING', label: m, lat: 52.2, lng: 21 }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/downloads/groups',
    table: 'downloads_groups',
    column: 'title',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, 'downloads/groups'), { title: m }),
  },
  {
    route: 'POST /api/v1/estates/:estateId/downloads/groups/:groupId/items',
    table: 'downloads_items',
    column: 'label',
    rows: 1,
    idOf: id,
    request: (s, m) => json(s, addon(s, `downloads/groups/${s.downloadsGroupId}/items`), { assetId: s.imageAssetId, label: m }),
  },
];

/** Sends one keyed create; `fault` names a test fault point (TEST_FAULTS servers only). */
export function sendKeyed(base: string, req: KeyedRequest, key: string, fault?: string): Promise<Response> {
  return fetch(`${base}${req.url}`, {
    method: 'POST',
    headers: { ...req.headers, 'idempotency-key': key, ...(fault ? { 'x-test-fault': fault } : {}) },
    body: typeof req.body === 'string' ? req.body : new Uint8Array(req.body),
  });
}

/** The ids of the records made under a marker. */
export async function markedIds(db: Queryable, create: KeyedCreate, marker: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${create.table} WHERE ${create.column} LIKE $1 ORDER BY id`, [`${marker}%`]);
  return rows.map((r) => r.id);
}

async function created(base: string, url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** An organization with what every creating route needs, made through the API of a running server. */
export async function seedCreates(base: string, adminToken: string, remoteSrc: string): Promise<Seed> {
  const org = await created(base, '/api/v1/admin/organizations', adminToken, { name: `Keyed ${Date.now()}` });
  const key = org.apiKey as string;
  const estateId = (await created(base, '/api/v1/estate', key, { name: `Keyed estate ${Date.now()}` })).id as string;
  const buildingId = (await created(base, '/api/v1/building', key, { name: 'Keyed building', estateId })).id as string;
  const investmentSectionId = (await created(base, `/api/v1/estates/${estateId}/investment/sections`, key, { title: 'Seed section' })).id as string;
  const downloadsGroupId = (await created(base, `/api/v1/estates/${estateId}/downloads/groups`, key, { title: 'Seed group' })).id as string;
  const seed = { key, estateId, buildingId, investmentSectionId, downloadsGroupId, imageAssetId: '', remoteSrc };
  const upload = multipart(seed, 'seed image');
  const res = await fetch(`${base}${upload.url}`, { method: 'POST', headers: upload.headers, body: new Uint8Array(upload.body as Buffer) });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  seed.imageAssetId = ((await res.json()) as { id: string }).id;
  return seed;
}

/** A loopback HTTP server answering every GET with the PNG (the source of POST /asset). */
export async function servePng(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) });
    res.end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/room.png`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
