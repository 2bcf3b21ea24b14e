import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type DashboardUser, hiddenCsv, importPreview, joinAs } from '../helpers/dashboard.js';

type Apartment = { id: string; name: string; status: string; priceCents: number | null; building: { name: string } };

const HEADER = 'building,name,status,price,currency';
const STATUSES = ['ACTIVE', 'BOOKED', 'SOLD', 'HIDDEN'] as const;

/**
 * The dashboard's CSV import is all or nothing (issue 35): the confirm is one transaction over the services'
 * own steps (a bulk change, then a bulk create per building), so a refusal of any step writes nothing, and
 * its webhook events exist only when it commits. Both engines.
 */
describe('dashboard CSV import, all or nothing', () => {
  let t: TestApp;
  let org: TestOrg;
  let editor: DashboardUser;
  let estateId: string;
  let base: string;

  const apartments = async () => {
    const items: Apartment[] = [];
    for (let offset = 0; ; offset += 500) {
      const res = await t.request({ method: 'GET', url: `/api/v1/apartment?estateId=${estateId}&limit=500&offset=${offset}`, key: org.key });
      expect(res.statusCode, res.body).toBe(200);
      const page = (res.json() as { items: Apartment[] }).items;
      items.push(...page);
      if (page.length < 500) break;
    }
    return items;
  };
  const events = async () =>
    (await t.db.query<{ type: string; body: string }>('SELECT type, body FROM webhook_events WHERE organization_id = $1', [org.id])).map((e) => ({
      type: e.type,
      ...(JSON.parse(e.body) as { data: Apartment; changes?: Record<string, unknown> }),
    }));
  /** A snapshot of every apartment's stored state: what "nothing written" compares. */
  const snapshot = async () =>
    (await apartments())
      .map((a) => `${a.id} ${a.building.name} ${a.name} ${a.status} ${a.priceCents}`)
      .sort()
      .join('\n');
  const preview = (csv: string) => importPreview(t, editor, `${base}/apartments/import?estateId=${estateId}`, csv);
  const confirm = (csv: string) => editor.post(`${base}/apartments/import/confirm?estateId=${estateId}`, { csv });

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg('Import Org');
    editor = await joinAs(t, org.id, 'editor@import.example', 'editor');
    base = `/dashboard/o/${org.id}`;
    const made = await editor.post(`${base}/estates`, { name: 'Import Estate', buildingName: 'North', slug: '' });
    expect(made.statusCode, made.body.slice(0, 300)).toBe(303);
    estateId = /\/estates\/([0-9a-f-]{36})/.exec(made.headers.location as string)![1]!;
    expect((await editor.post(`${base}/estates/${estateId}/buildings`, { buildingName: 'South' })).statusCode).toBe(303);
    const north = (await t.request({ method: 'GET', url: `/api/v1/estate/${estateId}`, key: org.key })).json().buildings[0].id as string;
    // 300 apartments already stored: the file changes 200 of them, repeats 100 as they are, and adds 1,700.
    const stored = await t.request({
      method: 'POST',
      url: '/api/v1/apartment/bulk',
      key: org.key,
      body: { buildingId: north, apartments: Array.from({ length: 300 }, (_, i) => ({ name: `N-${i}`, priceCents: 100_000_00, currency: 'EUR' })) },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      key: org.key,
      body: { url: 'https://hooks.example.com/import', events: ['apartment.created', 'apartment.updated'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(() => t?.close());

  /** 2,000 lines: N-0…N-299 (the first 200 changed), then 1,700 new ones over both buildings. */
  const lines = () => {
    const rows: string[] = [];
    for (let i = 0; i < 300; i++) rows.push(i < 200 ? `North,N-${i},${STATUSES[i % 4]},${200000 + i},EUR` : `North,N-${i},ACTIVE,100000,EUR`);
    for (let i = 0; i < 1700; i++) rows.push(`${i % 2 ? 'South' : 'North'},X-${i},${STATUSES[i % 4]},${300000 + i}.50,EUR`);
    return rows;
  };

  it('a file with one bad line among 2,000 is refused with its line, and its confirm writes nothing', async () => {
    const before = await snapshot();
    const rows = lines();
    rows[1234] = 'South,X-bad,ACTIVE,not a price,EUR';
    const file = `${[HEADER, ...rows].join('\n')}\n`;
    const shown = await preview(file);
    expect(shown.statusCode).toBe(422);
    expect(shown.body).toContain('Line 1236:');
    expect(shown.body).toContain('nothing was imported');
    expect(shown.body).not.toContain('Confirm import');
    const forced = await confirm(file);
    expect(forced.statusCode).toBe(422);
    expect(await snapshot()).toBe(before);
    expect(await events()).toEqual([]);
  });

  it('a step refused during the confirm (a name taken since the preview) undoes the steps before it: nothing written, no event', async () => {
    const before = await snapshot();
    const file = `${[HEADER, ...lines()].join('\n')}\n`;
    const shown = await preview(file);
    expect(shown.statusCode, shown.body.slice(0, 500)).toBe(200);
    expect(shown.body).toContain('1700 to create, 200 to change, 100 unchanged.');
    // Someone takes the name of the file's last new apartment in South between the preview and the confirm, as the
    // database reports it when the insert of the confirm's last step (South's creates) meets it: the unique index's error.
    // The steps before it (the 200 changes, North's creates) have run by then.
    await t.db.exec(`
      CREATE FUNCTION test_name_taken() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name = 'X-1699' THEN
          RAISE EXCEPTION 'duplicate key value violates unique constraint "apartments_building_name_uq"'
            USING ERRCODE = 'unique_violation', CONSTRAINT = 'apartments_building_name_uq';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_name_taken BEFORE INSERT ON apartments FOR EACH ROW EXECUTE FUNCTION test_name_taken();`);
    try {
      const refused = await confirm(hiddenCsv(shown.body));
      expect(refused.statusCode, refused.body.slice(0, 500)).toBe(409);
      expect(refused.body).toContain('Someone changed the apartments or buildings of this estate since the preview, so nothing was imported.');
      expect(refused.body).not.toMatch(/"statusCode"/);
    } finally {
      await t.db.exec('DROP TRIGGER test_name_taken ON apartments; DROP FUNCTION test_name_taken();');
    }
    expect(await snapshot()).toBe(before);
    expect(await events()).toEqual([]);
  });

  it('2,000 lines previewed, then confirmed: exactly what the preview said is created and changed, with one event each', async () => {
    const before = new Map((await apartments()).map((a) => [a.name, a]));
    expect(before.size).toBe(300);
    const rows = lines();
    const file = `${[HEADER, ...rows].join('\r\n')}\r\n`;
    const shown = await preview(file);
    expect(shown.statusCode, shown.body.slice(0, 500)).toBe(200);
    expect(shown.body).toContain('1700 to create, 200 to change, 100 unchanged.');
    expect(shown.body).toContain('status ACTIVE → BOOKED, price 100000 → 200001');
    expect((await apartments()).length).toBe(300);

    const done = await confirm(hiddenCsv(shown.body));
    expect(done.statusCode, done.body.slice(0, 500)).toBe(303);
    expect(done.headers.location).toBe(`${base}/apartments?estateId=${estateId}&done=imported`);

    const after = await apartments();
    expect(after.length).toBe(2000);
    const byName = new Map(after.map((a) => [a.name, a]));
    for (const row of rows) {
      const [building, name, status, price] = row.split(',') as [string, string, string, string];
      const stored = byName.get(name);
      expect(stored, name).toBeDefined();
      expect([stored!.building.name, stored!.status, stored!.priceCents], name).toEqual([building, status, Math.round(Number(price) * 100)]);
      // Changed in place, never made again.
      if (before.has(name)) expect(stored!.id).toBe(before.get(name)!.id);
    }
    const written = await events();
    expect(written.filter((e) => e.type === 'apartment.created').length).toBe(1700);
    const updated = written.filter((e) => e.type === 'apartment.updated');
    expect(updated.length).toBe(200);
    expect(new Set(updated.map((e) => e.data.name))).toEqual(new Set(Array.from({ length: 200 }, (_, i) => `N-${i}`)));
    expect(updated.find((e) => e.data.name === 'N-1')!.changes).toEqual({
      status: { before: 'ACTIVE', after: 'BOOKED' },
      priceCents: { before: 100_000_00, after: 200_001_00 },
    });
  });
});
