import type { TestApp } from './app.js';

let seq = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${++seq}`;

async function created<T>(t: TestApp, key: string, url: string, body: Record<string, unknown>): Promise<T> {
  const res = await t.request({ method: 'POST', url, key, body });
  if (res.statusCode !== 201) throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

export interface Ids {
  id: string;
  [k: string]: unknown;
}

export const createEstate = (t: TestApp, key: string, body: Record<string, unknown> = {}) =>
  created<Ids & { slug: string; name: string }>(t, key, '/api/v1/estate', { name: unique('Estate'), ...body });

export const createBuilding = (t: TestApp, key: string, estateId: string, body: Record<string, unknown> = {}) =>
  created<Ids & { estateId: string }>(t, key, '/api/v1/building', { name: unique('Building'), estateId, ...body });

export const createApartment = (t: TestApp, key: string, buildingId: string, body: Record<string, unknown> = {}) =>
  created<Ids & { buildingId: string; estateId: string }>(t, key, '/api/v1/apartment', { name: unique('Apartment'), buildingId, ...body });

/** An estate with one building and one apartment, all of one organization. */
export async function createProject(t: TestApp, key: string) {
  const estate = await createEstate(t, key);
  const building = await createBuilding(t, key, estate.id);
  const apartment = await createApartment(t, key, building.id);
  return { estate, building, apartment };
}
