import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PublisherClient, createPublisherClient, must } from '../../clients/typescript/src/index.js';
import { ADMIN_TOKEN, type TestApp, createTestApp } from '../helpers/app.js';
import { pngWithAlpha } from './image-fixtures.js';

/**
 * A project set up from nothing through the TypeScript client only, against the real server on a port:
 * what an integrator's code does. No casts: the types come from the served document.
 */
describe('the TypeScript client against the real server', () => {
  let t: TestApp;
  let baseUrl: string;
  let operator: PublisherClient;
  let anonymous: PublisherClient;

  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    operator = createPublisherClient({ baseUrl, adminToken: ADMIN_TOKEN });
    anonymous = createPublisherClient({ baseUrl });
  });
  afterAll(async () => t?.close());

  it('sets up a whole project: organization, estate, buildings, apartments, an image, the four add-ons, an inquiry', async () => {
    const created = await must(operator.api.POST('/api/v1/admin/organizations', { body: { name: 'Client Developments' } }));
    const client = createPublisherClient({ baseUrl, key: created.apiKey });

    const setup = await must(client.api.POST('/api/v1/estate/setup', { body: { name: 'River Park', buildingName: 'Building A' } }));
    expect(setup.estate.slug).toBe('river-park');
    expect(setup.building.name).toBe('Building A');
    const estateId = setup.estate.id;
    const second = await must(client.api.POST('/api/v1/building', { body: { estateId, name: 'Building B' } }));

    const bulk = await must(
      client.api.POST('/api/v1/apartment/bulk', {
        body: {
          buildingId: setup.building.id,
          apartments: [
            { name: 'A-1', externalId: 'A-1' },
            { name: 'A-2', externalId: 'A-2', priceCents: 40_000_000 },
          ],
        },
      }),
    );
    expect(bulk).toBeTruthy();
    const upserted = await must(
      client.api.POST('/api/v1/apartment/upsert', {
        body: {
          buildingId: second.id,
          apartments: [
            { externalId: 'B-1', name: 'B-1', priceCents: 50_000_000, status: 'BOOKED' },
            { externalId: 'A-2', priceCents: 41_000_000 },
          ],
        },
      }),
    );
    expect([upserted.created, upserted.updated]).toEqual([1, 1]);

    // One image from a Buffer, one from a stream; the first is attached to an apartment.
    const image = await client.upload(await pngWithAlpha(), { fileName: 'facade.png', name: 'Facade' });
    expect(image.mimeType).toBe('image/png');
    const streamed = await client.upload(Readable.from([await pngWithAlpha()]), { fileName: 'garden.png' });
    expect(streamed.name).toBe('garden.png');
    const apartmentId = upserted.items.find((item) => item.externalId === 'B-1')?.id ?? '';
    const withImage = await must(client.api.PATCH('/api/v1/apartment/{id}', { params: { path: { id: apartmentId } }, body: { assetsIds: [image.id] } }));
    expect(withImage.assetsIds).toEqual([image.id]);
    expect(withImage.status).toBe('BOOKED');

    const path = { estateId };
    // Investment: a section with a file.
    await must(client.api.PUT('/api/v1/estates/{estateId}/investment', { params: { path }, body: { enabled: true } }));
    const section = await must(client.api.POST('/api/v1/estates/{estateId}/investment/sections', { params: { path }, body: { title: 'Permits' } }));
    await must(
      client.api.POST('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files', {
        params: { path: { estateId, sectionId: section.id } },
        body: { assetId: image.id, label: 'Site plan' },
      }),
    );
    // Gallery: two items, ordered.
    await must(client.api.PUT('/api/v1/estates/{estateId}/gallery', { params: { path }, body: { enabled: true } }));
    const first = await must(client.api.POST('/api/v1/estates/{estateId}/gallery/items', { params: { path }, body: { assetId: image.id, caption: 'Facade' } }));
    const next = await must(client.api.POST('/api/v1/estates/{estateId}/gallery/items', { params: { path }, body: { assetId: streamed.id } }));
    await must(client.api.PUT('/api/v1/estates/{estateId}/gallery/items/order', { params: { path }, body: { orderedIds: [next.id, first.id] } }));
    // Map: a centre and two points, ordered.
    await must(
      client.api.PUT('/api/v1/estates/{estateId}/map', { params: { path }, body: { enabled: true, centerLat: 52.23, centerLng: 21.01, defaultZoom: 14 } }),
    );
    const school = await must(
      client.api.POST('/api/v1/estates/{estateId}/map/pois', { params: { path }, body: { category: 'EDUCATION', label: 'School', lat: 52.231, lng: 21.012 } }),
    );
    const tram = await must(
      client.api.POST('/api/v1/estates/{estateId}/map/pois', { params: { path }, body: { category: 'TRANSIT', label: 'Tram', lat: 52.229, lng: 21.009 } }),
    );
    await must(client.api.PUT('/api/v1/estates/{estateId}/map/pois/order', { params: { path }, body: { orderedIds: [tram.id, school.id] } }));
    // Downloads: a group with an item.
    await must(client.api.PUT('/api/v1/estates/{estateId}/downloads', { params: { path }, body: { enabled: true } }));
    const group = await must(client.api.POST('/api/v1/estates/{estateId}/downloads/groups', { params: { path }, body: { title: 'Brochures' } }));
    await must(
      client.api.POST('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items', {
        params: { path: { estateId, groupId: group.id } },
        body: { assetId: image.id, label: 'Brochure' },
      }),
    );

    // What a public page reads, with no key.
    const gallery = await must(anonymous.api.GET('/api/v1/estates/{estateId}/gallery', { params: { path } }));
    expect(gallery.items.map((item) => item.id)).toEqual([next.id, first.id]);
    const map = await must(anonymous.api.GET('/api/v1/estates/{estateId}/map', { params: { path } }));
    expect(map.pois.map((poi) => poi.label)).toEqual(['Tram', 'School']);
    expect(map.pois[0]?.category).toBe('TRANSIT');
    const investment = await must(anonymous.api.GET('/api/v1/estates/{estateId}/investment', { params: { path } }));
    expect(investment.sections[0]?.files[0]?.label).toBe('Site plan');
    const downloads = await must(anonymous.api.GET('/api/v1/estates/{estateId}/downloads', { params: { path } }));
    expect(downloads.groups[0]?.items[0]?.asset.src).toContain('/files/');

    // A prospect's inquiry, then the organization works on it.
    const receipt = await must(
      anonymous.api.POST('/api/v1/estates/{estateId}/inquiries', {
        params: { path },
        body: { name: 'Jane Doe', email: 'jane@example.com', apartmentIds: [apartmentId] },
      }),
    );
    expect(receipt.status).toBe('NEW');
    const changed = await must(client.api.PATCH('/api/v1/inquiry/{id}', { params: { path: { id: receipt.id } }, body: { status: 'IN_PROGRESS' } }));
    expect(changed.status).toBe('IN_PROGRESS');

    // The iterators: every estate page by page, and the apartment change feed to its end.
    const estates: string[] = [];
    for await (const estate of client.pages(async (offset, limit) => must(client.api.GET('/api/v1/estate', { params: { query: { offset, limit } } })), 1)) {
      estates.push(estate.name);
    }
    expect(estates).toEqual(['River Park']);
    const fed = new Set<string>();
    for await (const page of client.changes('apartment')) for (const item of page.items) fed.add(item.id);
    expect(fed.size).toBe(3);
  });

  it('retries a 429 after Retry-After and sends one Idempotency-Key for every attempt of a create', async () => {
    const created = await must(operator.api.POST('/api/v1/admin/organizations', { body: { name: 'Retry Developments' } }));
    const keys: string[] = [];
    let calls = 0;
    const flaky = createPublisherClient({
      baseUrl,
      key: created.apiKey,
      backoffMs: 1,
      fetch: async (request) => {
        calls++;
        keys.push(request.headers.get('idempotency-key') ?? '');
        if (calls === 1)
          return new Response(JSON.stringify({ statusCode: 429, message: 'slow down', error: 'Too Many Requests' }), {
            status: 429,
            headers: { 'retry-after': '0' },
          });
        if (calls === 2) return new Response(JSON.stringify({ statusCode: 503, message: 'unavailable', error: 'Service Unavailable' }), { status: 503 });
        return fetch(request);
      },
    });
    const estate = await must(flaky.api.POST('/api/v1/estate', { body: { name: 'Retried' } }));
    expect(estate.name).toBe('Retried');
    expect(calls).toBe(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);

    const failing = createPublisherClient({ baseUrl, key: 'epk_wrong', retries: 0 });
    await expect(must(failing.api.GET('/api/v1/estate', {}))).rejects.toMatchObject({ status: 401 });
  });
});
