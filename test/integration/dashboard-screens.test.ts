import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, hiddenCsv, importPreview as importFile, joinAs } from '../helpers/dashboard.js';

type Apartment = { id: string; name: string; status: string; priceCents: number | null; buildingId: string };

/** The dashboard's screens (issue 35) through app.inject: forms, redirects, errors next to fields, roles (both engines). */
describe('dashboard screens', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let editor: DashboardUser;
  let viewer: DashboardUser;
  let estateId: string;
  let buildingId: string;
  let base: string;

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.request({ method, url, key: a.key, body });
  const apartmentsOf = async () => (await api('GET', `/api/v1/apartment?estateId=${estateId}`)).json().items as Apartment[];

  const importPreview = (user: DashboardUser, csv: string) => importFile(t, user, `${base}/apartments/import?estateId=${estateId}`, csv);

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Screens A');
    b = await t.createOrg('Screens B');
    await joinAs(t, a.id, 'admin@screens.example', 'admin');
    editor = await joinAs(t, a.id, 'editor@screens.example', 'editor');
    viewer = await joinAs(t, a.id, 'viewer@screens.example', 'viewer');
    base = `/dashboard/o/${a.id}`;
  });
  afterAll(() => t?.close());

  it('estates: quick setup creates the estate, its first building and navigator; errors are next to their fields', async () => {
    const empty = await editor.post(`${base}/estates`, { name: '  ', buildingName: '', slug: '' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('id="field-name-error"');
    expect(empty.body).toContain('Enter the estate’s name');
    expect(empty.body).toContain('There is a problem');
    const badSlug = await editor.post(`${base}/estates`, { name: 'Harbour', slug: 'Not A Slug' });
    expect(badSlug.statusCode).toBe(422);
    expect(badSlug.body).toContain('id="field-slug-error"');
    expect(badSlug.body).toContain('value="Harbour"');

    const made = await editor.post(`${base}/estates`, { name: 'Harbour View', buildingName: 'North', slug: '' });
    expect(made.statusCode).toBe(303);
    estateId = /\/estates\/([0-9a-f-]{36})\?done=created$/.exec(made.headers.location as string)![1]!;
    const estate = (await api('GET', `/api/v1/estate/${estateId}`)).json();
    expect(estate.name).toBe('Harbour View');
    expect(estate.buildings.map((x: { name: string }) => x.name)).toEqual(['North']);
    expect(estate.navigatorId).toMatch(/^[0-9a-f-]{36}$/);
    buildingId = estate.buildings[0].id;
    const page = await editor.get(made.headers.location as string);
    expect(page.body).toContain('The estate is set up with its first building.');

    const dup = await editor.post(`${base}/estates`, { name: 'harbour view ' });
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toContain('Another estate of your organization already has this name.');
    const list = await viewer.get(`${base}/estates`);
    expect(list.body).toContain('Harbour View');
    expect(list.body).not.toContain('Quick setup');
  });

  it('estates: edit saves through the API’s rules; a stale form is 412 explained, never overwritten', async () => {
    const form = await editor.get(`${base}/estates/${estateId}`);
    const version = /name="version" value="([^"]+)"/.exec(form.body)![1]!.replace(/&quot;/g, '"');
    const saved = await editor.post(`${base}/estates/${estateId}`, { version, name: 'Harbour View', slug: 'harbour-view', description: 'By the sea' });
    expect(saved.statusCode).toBe(303);
    expect((await api('GET', `/api/v1/estate/${estateId}`)).json().description).toBe('By the sea');
    const stale = await editor.post(`${base}/estates/${estateId}`, { version, name: 'Harbour View', slug: 'harbour-view', description: 'Old tab' });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('Someone changed this since you opened it');
    expect(stale.body).toContain('By the sea');
    expect((await api('GET', `/api/v1/estate/${estateId}`)).json().description).toBe('By the sea');
    expect(stale.body).not.toMatch(/"statusCode"/);
  });

  it('buildings: add one to the estate and rename it; a duplicate name is shown next to the field', async () => {
    const added = await editor.post(`${base}/estates/${estateId}/buildings`, { buildingName: 'South' });
    expect(added.statusCode).toBe(303);
    const dup = await editor.post(`${base}/estates/${estateId}/buildings`, { buildingName: 'south' });
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toContain('id="field-buildingName-error"');
    const south = (await api('GET', `/api/v1/estate/${estateId}`)).json().buildings.find((x: { name: string }) => x.name === 'South');
    expect((await editor.post(`${base}/buildings/${south.id}`, { name: 'South Tower' })).statusCode).toBe(303);
    expect((await api('GET', `/api/v1/building/${south.id}`)).json().name).toBe('South Tower');
  });

  it('apartments: the table filters by building and status, sorts, and saves an inline price as the API would (apartment.updated with changes and actor)', async () => {
    const hook = await api('POST', '/api/v1/webhooks', { url: 'https://hooks.example.com/pps', events: ['apartment.updated'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const created = await api('POST', '/api/v1/apartment/bulk', {
      buildingId,
      apartments: [
        { name: 'A-1', priceCents: 300_000_00, currency: 'EUR' },
        { name: 'A-2', priceCents: 100_000_00, currency: 'EUR', status: 'SOLD' },
        { name: 'A-3', priceCents: 200_000_00, currency: 'EUR' },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const table = await editor.get(`${base}/apartments?estateId=${estateId}&sort=-priceCents`);
    expect(table.statusCode).toBe(200);
    const order = [...table.body.matchAll(/<th scope="row">(A-\d)<\/th>/g)].map((m) => m[1]);
    expect(order).toEqual(['A-1', 'A-3', 'A-2']);
    const sold = await editor.get(`${base}/apartments?estateId=${estateId}&status=SOLD`);
    expect([...sold.body.matchAll(/<th scope="row">(A-\d)<\/th>/g)].map((m) => m[1])).toEqual(['A-2']);
    const south = (await api('GET', `/api/v1/estate/${estateId}`)).json().buildings.find((x: { name: string }) => x.name === 'South Tower');
    const none = await editor.get(`${base}/apartments?estateId=${estateId}&buildingId=${south.id}`);
    expect([...none.body.matchAll(/<th scope="row">/g)]).toHaveLength(0);

    const a1 = (await apartmentsOf()).find((x) => x.name === 'A-1')!;
    const version = new RegExp(`action="[^"]*/${a1.id}"[^]*?name="version" value="([^"]+)"`).exec(table.body)![1]!.replace(/&quot;/g, '"');
    const bad = await editor.post(`${base}/apartments/${a1.id}`, { version, status: 'ACTIVE', price: 'lots', back: `estateId=${estateId}` });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(`id="price-error-${a1.id}"`);
    const saved = await editor.post(`${base}/apartments/${a1.id}`, { version, status: 'ACTIVE', price: '295000', back: `estateId=${estateId}` });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${base}/apartments?estateId=${estateId}&done=saved#apartment-${a1.id}`);
    expect((await apartmentsOf()).find((x) => x.id === a1.id)!.priceCents).toBe(295_000_00);
    const [event] = await t.db.query<{ body: string }>(
      "SELECT body FROM webhook_events WHERE organization_id = $1 AND type = 'apartment.updated' AND body::json->'data'->>'id' = $2",
      [a.id, a1.id],
    );
    const body = JSON.parse(event!.body);
    expect(body.changes).toEqual({ priceCents: { before: 300_000_00, after: 295_000_00 } });
    const [editorId] = await t.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'editor@screens.example'");
    expect(body.actor).toEqual({ type: 'user', id: editorId!.id });

    // The same form again (an old tab): 412 explained, the price stays.
    const stale = await editor.post(`${base}/apartments/${a1.id}`, { version, status: 'ACTIVE', price: '1', back: '' });
    expect(stale.statusCode).toBe(412);
    expect(stale.body).toContain('Someone changed this since you opened it');
    expect((await apartmentsOf()).find((x) => x.id === a1.id)!.priceCents).toBe(295_000_00);
  });

  it('apartments: a viewer sees the table read-only and cannot change a price (403, nothing written)', async () => {
    const table = await viewer.get(`${base}/apartments?estateId=${estateId}`);
    expect(table.statusCode).toBe(200);
    expect(table.body).not.toContain('name="price"');
    const a3 = (await apartmentsOf()).find((x) => x.name === 'A-3')!;
    const res = await viewer.post(`${base}/apartments/${a3.id}`, { price: '1', status: 'ACTIVE' });
    expect(res.statusCode).toBe(403);
    expect((await apartmentsOf()).find((x) => x.id === a3.id)!.priceCents).toBe(200_000_00);
  });

  it('apartments: bulk status for the selected rows; nothing selected is explained', async () => {
    const [a1, , a3] = (await apartmentsOf()).sort((x, y) => x.name.localeCompare(y.name));
    const none = await editor.post(`${base}/apartments/bulk-status`, { status: 'BOOKED', back: `estateId=${estateId}` });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('Select at least one apartment first.');
    const res = await editor.post(`${base}/apartments/bulk-status`, { status: 'BOOKED', ids: [a1!.id, a3!.id], back: `estateId=${estateId}` });
    expect(res.statusCode).toBe(303);
    const after = await apartmentsOf();
    expect(
      after
        .filter((x) => x.status === 'BOOKED')
        .map((x) => x.name)
        .sort(),
    ).toEqual(['A-1', 'A-3']);
  });

  it('apartments: CSV export, and an import previewed (nothing written) then confirmed creates and changes exactly what the preview said', async () => {
    const csv = await editor.get(`${base}/apartments/export.csv?estateId=${estateId}&sort=name`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n').length >= 4 || csv.body.split('\n').length >= 4).toBe(true);
    expect(csv.body).toMatch(/^building,name,status,price,currency\r?\nNorth,A-1,BOOKED,295000,EUR/);

    const lines = ['building,name,status,price,currency', 'North,A-1,SOLD,290000,EUR', 'North,A-2,SOLD,100000,EUR'];
    for (let i = 1; i <= 2000; i++) lines.push(`${i % 2 ? 'North' : 'South Tower'},B-${i},ACTIVE,${100000 + i},EUR`);
    const file = `${lines.join('\n')}\n`;
    const preview = await importPreview(editor, file);
    expect(preview.statusCode, preview.body.slice(0, 500)).toBe(200);
    expect(preview.body).toContain('2000 to create, 1 to change, 1 unchanged.');
    expect(preview.body).toContain('status BOOKED → SOLD, price 295000 → 290000');
    expect(await apartmentsOf()).toHaveLength(3);

    const confirmed = await editor.post(`${base}/apartments/import/confirm?estateId=${estateId}`, { csv: hiddenCsv(preview.body) });
    expect(confirmed.statusCode, confirmed.body.slice(0, 300)).toBe(303);
    const after = await apartmentsOf();
    expect(after).toHaveLength(2003);
    const a1 = after.find((x) => x.name === 'A-1')!;
    expect([a1.status, a1.priceCents]).toEqual(['SOLD', 290_000_00]);
    expect(after.find((x) => x.name === 'B-2000')!.priceCents).toBe(102_000_00);
  });

  it('apartments: an import with one bad line lists the line and writes nothing, even when confirmed', async () => {
    const file = 'building,name,status,price,currency\nNorth,C-1,ACTIVE,1000,EUR\nNowhere,C-2,ACTIVE,1000,EUR\nNorth,C-3,GONE,12x,EUR\n';
    const preview = await importPreview(editor, file);
    expect(preview.statusCode).toBe(422);
    expect(preview.body).toContain('Line 3: there is no building “Nowhere” in this estate.');
    expect(preview.body).toContain('Line 4: the status “GONE” is not ACTIVE, BOOKED, SOLD or HIDDEN; the price “12x” is not a number');
    expect(preview.body).not.toContain('Confirm import');
    const forced = await editor.post(`${base}/apartments/import/confirm?estateId=${estateId}`, { csv: file });
    expect(forced.statusCode).toBe(422);
    expect((await apartmentsOf()).some((x) => x.name.startsWith('C-'))).toBe(false);
    const viewerImport = await importPreview(viewer, file);
    expect(viewerImport.statusCode).toBe(403);
  });

  it('inquiries: newest first with the homes they name; a viewer sets the status', async () => {
    const a3 = (await apartmentsOf()).find((x) => x.name === 'A-3')!;
    for (const name of ['First Buyer', 'Second Buyer']) {
      const res = await t.request({
        method: 'POST',
        url: `/api/v1/estates/${estateId}/inquiries`,
        body: { name, email: 'buyer@example.com', apartmentIds: [a3.id] },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const page = await viewer.get(`${base}/inquiries`);
    expect(page.statusCode).toBe(200);
    expect(page.body.indexOf('Second Buyer')).toBeLessThan(page.body.indexOf('First Buyer'));
    expect(page.body).toContain('Homes: A-3 (North)');
    const [inquiry] = (await api('GET', `/api/v1/inquiry?estateId=${estateId}`)).json().items as Array<{ id: string }>;
    const res = await viewer.post(`${base}/inquiries/${inquiry!.id}/status`, { status: 'IN_PROGRESS' });
    expect(res.statusCode).toBe(303);
    expect((await api('GET', `/api/v1/inquiry?estateId=${estateId}`)).json().items[0].status).toBe('IN_PROGRESS');
  });

  it('the shell: the navigation landmark "Dashboard", an organization switcher for a member of several, 404 for another organization’s estate', async () => {
    const home = await editor.get('/dashboard');
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe(`${base}/estates`);
    expect((await t.app.inject({ method: 'GET', url: '/dashboard' })).headers.location).toBe('/dashboard/sign-in');
    const page = await editor.get(`${base}/estates`);
    expect(page.body).toContain('<nav class="side" aria-label="Dashboard">');
    expect(page.body).not.toContain('id="organization-switch"');
    const both = await joinAs(t, b.id, 'editor@screens.example', 'viewer').catch(() => undefined);
    expect(both).toBeDefined();
    const again = await both!.get(`${base}/estates`);
    expect(again.body).toContain('id="organization-switch"');
    expect((await both!.get(`/dashboard/switch?organization=${b.id}`)).headers.location).toBe(`/dashboard/o/${b.id}/estates`);
    const bEstate = (await t.request({ method: 'POST', url: '/api/v1/estate', key: b.key, body: { name: 'B Estate' } })).json();
    expect((await editor.get(`${base}/estates/${bEstate.id}`)).statusCode).toBe(404);
    expect((await editor.get(`${base}/apartments?estateId=${bEstate.id}`)).statusCode).toBe(404);
    expect((await editor.post(`${base}/estates/${bEstate.id}/buildings`, { buildingName: 'Intruder' })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/estate/${bEstate.id}`, key: b.key })).json().buildings).toHaveLength(0);
  });
});
