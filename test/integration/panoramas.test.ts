import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000000';

describe('panoramas', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let project: Awaited<ReturnType<typeof createProject>>;
  let foreign: Awaited<ReturnType<typeof createProject>>;
  const create = (apartmentId: string, body: unknown, key = ADMIN_TOKEN) =>
    t.request({ method: 'POST', url: `/api/v1/admin/apartments/${apartmentId}/panoramas`, key, body });
  const list = (apartmentId: string, key: string | undefined) => t.request({ method: 'GET', url: `/api/v1/apartment/${apartmentId}/panoramas`, key });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Pano A');
    b = await t.createOrg('Pano B');
    project = await createProject(t, a.key);
    foreign = await createProject(t, b.key);
  });
  afterAll(async () => t?.close());

  it('creates panoramas in the full shape and lists them with linked panoramas one level deep', async () => {
    const kitchen = await create(project.apartment.id, { name: 'Kitchen', src: 'https://cdn.example.com/kitchen.jpg', priority: 1 });
    expect(kitchen.statusCode).toBe(201);
    const kitchenId = kitchen.json().id;
    const parentId = '01890000-0000-7000-8000-0000000000aa';
    const living = await create(project.apartment.id, {
      name: 'Living room',
      src: 'https://cdn.example.com/living.jpg',
      priority: 5,
      seoTitle: 'Living',
      seoDescription: 'Bright living room',
      metadata: { prealign: '0|0|0', hlookat: 10, vlookat: -5, northOffset: 90 },
      comments: [
        { id: parentId, comment: 'Nice light', authorData: { name: 'Ann', email: 'ann@example.com', nickname: 'ann' }, x: 1, y: 2 },
        { comment: 'Agreed', x: 3, y: 4, parentCommentId: parentId },
      ],
      portals: [{ icon: 'door', label: 'To kitchen', x: 5, y: 6, toPanoramaId: kitchenId }],
      pois: [{ name: 'Window', x: 7, y: 8, data: { urls: ['https://example.com/w'], type: 'info' } }],
      linkedPanoramaIds: [kitchenId],
    });
    expect(living.statusCode).toBe(201);
    const created = living.json();
    expect(created).toMatchObject({
      name: 'Living room',
      priority: 5,
      apartmentId: project.apartment.id,
      seoTitle: 'Living',
      metadata: { prealign: '0|0|0', hlookat: 10, vlookat: -5, northOffset: 90 },
    });
    expect(created.comments[1]).toMatchObject({ comment: 'Agreed', parentCommentId: parentId, authorData: { name: null, email: null, nickname: null } });
    expect(created.portals[0]).toMatchObject({ fromPanoramaId: created.id, toPanoramaId: kitchenId, label: 'To kitchen' });
    expect(created.pois[0]).toMatchObject({ name: 'Window', data: { urls: ['https://example.com/w'], type: 'info' } });
    expect(created.linkedPanoramas).toHaveLength(1);

    const res = await list(project.apartment.id, a.key);
    expect(res.statusCode).toBe(200);
    const panoramas = res.json();
    expect(panoramas.map((p: { name: string }) => p.name)).toEqual(['Living room', 'Kitchen']);
    expect(panoramas[0].linkedPanoramas).toEqual([expect.objectContaining({ id: kitchenId, name: 'Kitchen', linkedPanoramas: [] })]);
    expect(panoramas[1]).toMatchObject({
      linkedPanoramas: [],
      comments: [],
      portals: [],
      pois: [],
      seoTitle: null,
      metadata: { prealign: null, hlookat: null, vlookat: null, northOffset: null },
    });
    expect(typeof panoramas[1].createdAt).toBe('string');
  });

  it('refuses references outside the organization and broken comment threads (422)', async () => {
    const other = (await create(foreign.apartment.id, { name: 'Foreign', src: 'https://cdn.example.com/f.jpg' })).json();
    const res = await create(project.apartment.id, {
      name: 'Bad',
      src: 'https://cdn.example.com/b.jpg',
      linkedPanoramaIds: [other.id, 'nope'],
      portals: [{ x: 1, y: 1, toPanoramaId: other.id }],
      comments: [{ comment: 'orphan', x: 0, y: 0, parentCommentId: MISSING }],
    });
    expect(res.statusCode).toBe(422);
    for (const f of ['linkedPanoramaIds', 'portals[0].toPanoramaId', 'comments[0].parentCommentId']) expect(res.json().message).toContain(f);
  });

  it('validates the body (422 naming fields) and never stores a rejected panorama', async () => {
    const before = (await list(project.apartment.id, a.key)).json().length;
    const res = await create(project.apartment.id, { name: '', src: 'javascript:alert(1)', priority: 'high', metadata: { hlookat: 999 }, pois: [{ x: 1 }] });
    expect(res.statusCode).toBe(422);
    for (const f of ['name', 'src', 'priority', 'metadata.hlookat', 'pois[0].name', 'pois[0].y']) expect(res.json().message).toContain(f);
    expect((await list(project.apartment.id, a.key)).json()).toHaveLength(before);
  });

  it('answers 404 for unknown or foreign apartments, 401 without a key, 403 for a partner key on the admin path', async () => {
    for (const id of [MISSING, 'nope']) {
      expect((await create(id, { name: 'X', src: 'https://cdn.example.com/x.jpg' })).statusCode).toBe(404);
      const res = await list(id, a.key);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`Apartment with id ${id} not found`);
    }
    expect((await list(project.apartment.id, b.key)).statusCode).toBe(404);
    expect((await list(project.apartment.id, undefined)).statusCode).toBe(401);
    const partner = await create(project.apartment.id, { name: 'X', src: 'https://cdn.example.com/x.jpg' }, a.key);
    expect(partner.statusCode).toBe(403);
    expect(partner.json().error).toBe('Forbidden');
  });
});
