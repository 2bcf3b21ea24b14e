import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { expectError } from '../helpers/bad-input.js';
import { createProject } from '../helpers/factories.js';

type Kind = 'estate' | 'building' | 'apartment';
const KINDS: Kind[] = ['estate', 'building', 'apartment'];
/** A change of each kind that a PATCH accepts. */
const CHANGE: Record<Kind, (n: number) => Record<string, unknown>> = {
  estate: (n) => ({ description: `estate change ${n}` }),
  building: (n) => ({ description: `building change ${n}` }),
  apartment: (n) => ({ priceCents: 1000 + n }),
};

describe('ETag and If-Match on one estate, building or apartment', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  const ids = {} as Record<Kind, string>;

  const url = (kind: Kind) => `/api/v1/${kind}/${ids[kind]}`;
  const read = (kind: Kind, key = a.key) => t.request({ method: 'GET', url: url(kind), key });
  const patch = (kind: Kind, body: unknown, ifMatch?: string, key = a.key) =>
    t.request({ method: 'PATCH', url: url(kind), key, body, ...(ifMatch !== undefined ? { headers: { 'if-match': ifMatch } } : {}) });
  const etag = async (kind: Kind) => (await read(kind)).headers.etag as string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('ETag A');
    b = await t.createOrg('ETag B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    const project = await createProject(t, a.key);
    ids.estate = project.estate.id;
    ids.building = project.building.id;
    ids.apartment = project.apartment.id;
  });
  afterAll(async () => t?.close());

  it.each(KINDS)('%s: GET answers a strong ETag, the same while nothing changes; PATCH answers the new one', async (kind) => {
    const first = await read(kind);
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(await etag(kind)).toBe(first.headers.etag);
    const changed = await patch(kind, CHANGE[kind](1));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.headers.etag).toMatch(/^"/);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(await etag(kind)).toBe(changed.headers.etag);
  });

  it.each(KINDS)('%s: If-Match with the current ETag (alone, in a list, or *) changes it; a stale one is 412 and changes nothing', async (kind) => {
    const current = await etag(kind);
    const ok = await patch(kind, CHANGE[kind](2), current);
    expect(ok.statusCode, ok.body).toBe(200);
    const stale = current;
    const now = ok.headers.etag as string;

    const refused = await patch(kind, CHANGE[kind](3), stale);
    expectError(refused, 412, /If-Match/);
    expect(refused.json().error).toBe('Precondition Failed');
    expect(await etag(kind)).toBe(now);
    expect((await read(kind)).json()).toMatchObject(CHANGE[kind](2));

    // A weak tag never matches under the strong comparison.
    expectError(await patch(kind, CHANGE[kind](3), `W/${now}`), 412);
    const listed = await patch(kind, CHANGE[kind](4), `"nope", ${now}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const star = await patch(kind, CHANGE[kind](5), '*');
    expect(star.statusCode, star.body).toBe(200);
    expect((await read(kind)).json()).toMatchObject(CHANGE[kind](5));
    // Without If-Match nothing is conditional.
    expect((await patch(kind, CHANGE[kind](6))).statusCode).toBe(200);
  });

  it.each(KINDS)('%s: another organization’s key is 404 with or without If-Match; no key 401; read-only key 403', async (kind) => {
    const current = await etag(kind);
    expectError(await read(kind, b.key), 404);
    expectError(await patch(kind, CHANGE[kind](7), current, b.key), 404);
    expectError(await patch(kind, CHANGE[kind](7), '*', b.key), 404);
    expectError(await t.request({ method: 'PATCH', url: url(kind), body: CHANGE[kind](7), headers: { 'if-match': current } }), 401);
    expectError(await patch(kind, CHANGE[kind](7), current, readOnly), 403);
    expect(await etag(kind)).toBe(current);
  });

  it('an unknown id is 404 also with If-Match: *', async () => {
    const missing = '01890000-0000-7000-8000-000000000000';
    expectError(
      await t.request({ method: 'PATCH', url: `/api/v1/apartment/${missing}`, key: a.key, body: { priceCents: 1 }, headers: { 'if-match': '*' } }),
      404,
    );
  });

  it('the ETag follows every change of the representation: an embedded building, a sync stamp', async () => {
    const apartmentBefore = await etag('apartment');
    const estateBefore = await etag('estate');
    const renamed = await patch('building', { name: 'Renamed building' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await etag('apartment')).not.toBe(apartmentBefore);
    expect(await etag('estate')).not.toBe(estateBefore);

    const external = await patch('apartment', { externalId: 'etag-ext-1' });
    expect(external.statusCode).toBe(200);
    const beforeStamp = await etag('apartment');
    const stamp = await t.request({
      method: 'POST',
      url: '/api/v1/apartment/upsert',
      key: a.key,
      body: { buildingId: ids.building, apartments: [{ externalId: 'etag-ext-1' }] },
    });
    expect(stamp.json()).toMatchObject({ unchanged: 1 });
    expect(await etag('apartment')).not.toBe(beforeStamp);
    expectError(await patch('apartment', { priceCents: 1 }, beforeStamp), 412);
  });

  it('If-Match longer than its limit is 400 naming the header', async () => {
    expectError(await patch('apartment', { priceCents: 1 }, `"${'x'.repeat(2100)}"`), 400, /if-match/);
  });

  it('ETag and If-Match are in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    // The header is a named component (#/components/headers/ETag).
    const header = (h: { $ref?: string; schema?: { type: string } }) => (h.$ref ? doc.components.headers[h.$ref.split('/').pop()!] : h);
    for (const kind of KINDS) {
      const path = doc.paths[`/api/v1/${kind}/{id}`];
      expect(header(path.get.responses['200'].headers.ETag).schema.type, kind).toBe('string');
      expect(header(path.patch.responses['200'].headers.ETag).schema.type, kind).toBe('string');
      expect(path.patch.responses['412'], kind).toBeDefined();
      expect(
        path.patch.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'if-match'),
        kind,
      ).toBeDefined();
    }
  });
});
