import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/client.js';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { isBackground } from '../helpers/background-statements.js';
import { createApartment, createProject } from '../helpers/factories.js';

const MISSING = '01890000-0000-7000-8000-000000000000';

describe('inquiries', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let project: Awaited<ReturnType<typeof createProject>>;
  let other: Awaited<ReturnType<typeof createProject>>;
  let referral: { id: string };

  const submit = (estateId: string, body: unknown, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/inquiries`, body, ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_INQUIRY_MAX: '1000' } });
    a = await t.createOrg('Inquiry A');
    b = await t.createOrg('Inquiry B');
    project = await createProject(t, a.key);
    other = await createProject(t, b.key);
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/admin/organizations/${a.id}/users`,
      key: ADMIN_TOKEN,
      body: { email: 'agent@a.example.com', firstName: 'Ada', lastName: 'Agent', role: 'admin', jobTitle: 'Sales' },
    });
    expect(res.statusCode).toBe(201);
    referral = res.json();
  });
  afterAll(async () => t?.close());

  it('accepts an anonymous submission and answers only the receipt', async () => {
    const res = await submit(project.estate.id, {
      name: 'Jan Kowalski',
      email: 'jan@example.com',
      phoneNumber: '+48 600-100-200',
      info: 'Interested in a 3-room flat',
      apartmentIds: [project.apartment.id],
      referralUserId: referral.id,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'id', 'status']);
    expect(body.status).toBe('NEW');
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });

  it('lists inquiries newest first with the referral user and its memberships embedded', async () => {
    const second = (await submit(project.estate.id, { name: 'Second', email: 'second@example.com' })).json();
    const res = await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.count).toBe(2);
    expect(list.items[0].id).toBe(second.id);
    expect(list.items[0].referralUser).toBeNull();
    const first = list.items[1];
    expect(first).toMatchObject({
      name: 'Jan Kowalski',
      email: 'jan@example.com',
      phoneNumber: '+48 600-100-200',
      info: 'Interested in a 3-room flat',
      estateId: project.estate.id,
      apartmentIds: [project.apartment.id],
      referralUserId: referral.id,
      status: 'NEW',
    });
    expect(first.referralUser).toMatchObject({
      id: referral.id,
      firstName: 'Ada',
      lastName: 'Agent',
      email: 'agent@a.example.com',
      role: 'admin',
      isRegistered: false,
    });
    expect(first.referralUser.organizationMemberships).toEqual([
      expect.objectContaining({ userId: referral.id, organizationId: a.id, role: 'admin', organization: { id: a.id, name: 'Inquiry A', featureFlags: [] } }),
    ]);
  });

  it('pages with offset and limit, filters by estate, and bounds the limit', async () => {
    const page = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { offset: '1', limit: '1' } })).json();
    expect(page.count).toBe(2);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].name).toBe('Jan Kowalski');
    const filtered = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { estateId: other.estate.id } })).json();
    expect(filtered).toEqual({ count: 0, items: [] });
    const notUuid = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { estateId: 'nope' } })).json();
    expect(notUuid).toEqual({ count: 0, items: [] });
    for (const limit of ['501', '0', 'abc']) {
      const res = await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { limit } });
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().message).toContain('limit');
    }
    expect((await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { limit: '500' } })).statusCode).toBe(200);
  });

  it('lists the inquiries of an apartment', async () => {
    const res = await t.request({ method: 'GET', url: `/api/v1/apartment/${project.apartment.id}/inquiries`, key: a.key });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(1);
    expect(body.items[0].referralUser.id).toBe(referral.id);
    const lonely = await createApartment(t, a.key, project.building.id);
    expect((await t.request({ method: 'GET', url: `/api/v1/apartment/${lonely.id}/inquiries`, key: a.key })).json()).toEqual({ count: 0, items: [] });
    const foreign = await t.request({ method: 'GET', url: `/api/v1/apartment/${project.apartment.id}/inquiries`, key: b.key });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(`Apartment with id ${project.apartment.id} not found`);
  });

  it('changes the status through every member, GET-modify-PATCH included', async () => {
    const [item] = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key, query: { limit: '1' } })).json().items;
    for (const status of ['IN_PROGRESS', 'WON', 'LOST', 'SPAM', 'NEW']) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${item.id}`, key: a.key, body: { status } });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(status);
    }
    const roundTrip = await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${item.id}`, key: a.key, body: { ...item, status: 'WON', name: 'ignored' } });
    expect(roundTrip.statusCode).toBe(200);
    expect(roundTrip.json()).toMatchObject({ status: 'WON', name: item.name });
    const bad = await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${item.id}`, key: a.key, body: { status: 'CLOSED' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('status');
    const unknownField = await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${item.id}`, key: a.key, body: { colour: 'red' } });
    expect(unknownField.statusCode).toBe(422);
    expect(unknownField.json().message).toContain('colour');
  });

  it('answers 404 for a missing or foreign inquiry and 403 for a read-only key', async () => {
    const [item] = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key })).json().items;
    for (const id of [MISSING, 'not-a-uuid']) {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${id}`, key: a.key, body: { status: 'WON' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, message: `Inquiry with id ${id} not found`, error: 'Not Found' });
    }
    expect((await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${item.id}`, key: b.key, body: { status: 'WON' } })).statusCode).toBe(404);
    const readOnly = await t.issueKey(a.id, ['read']);
    expect((await t.request({ method: 'PATCH', url: `/api/v1/inquiry/${item.id}`, key: readOnly.key, body: { status: 'WON' } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/inquiry', key: readOnly.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/v1/inquiry' })).statusCode).toBe(401);
    const foreignList = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: b.key })).json();
    expect(foreignList).toEqual({ count: 0, items: [] });
  });

  it('validates the submission and names every offending field', async () => {
    const before = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key })).json().count;
    const cases: Array<[unknown, string[]]> = [
      [{}, ['name', 'email']],
      [{ name: '', email: 'x@example.com' }, ['name']],
      [{ name: 'x'.repeat(201), email: 'x@example.com' }, ['name']],
      [{ name: 'Ok', email: 'not-an-email' }, ['email']],
      [{ name: 'Ok', email: 'x@example.com', phoneNumber: 'call me' }, ['phoneNumber']],
      [{ name: 'Ok', email: 'x@example.com', phoneNumber: '12' }, ['phoneNumber']],
      [{ name: 'Ok', email: 'x@example.com', info: 'y'.repeat(20_001) }, ['info']],
      [{ name: 'Ok', email: 'x@example.com', apartmentIds: 'one' }, ['apartmentIds']],
      [{ name: 'Ok', email: 'x@example.com', status: 'WON' }, ['status']],
      [{ name: 'Ok', email: 'x@example.com', apartmentIds: [other.apartment.id] }, ['apartmentIds']],
      [{ name: 'Ok', email: 'x@example.com', apartmentIds: ['nope'] }, ['apartmentIds']],
      [{ name: 'Ok', email: 'x@example.com', referralUserId: MISSING }, ['referralUserId']],
      [{ name: 'Ok', email: 'x@example.com', referralUserId: 'nope', apartmentIds: [MISSING] }, ['referralUserId', 'apartmentIds']],
    ];
    for (const [body, fields] of cases) {
      const res = await submit(project.estate.id, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json().error).toBe('Unprocessable Entity');
      for (const f of fields) expect(res.json().message).toContain(f);
    }
    expect((await submit(project.estate.id, '{"name":')).statusCode).toBe(400);
    expect((await submit(project.estate.id, [1, 2])).statusCode).toBe(400);
    const after = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key })).json().count;
    expect(after).toBe(before);
  });

  it('keeps name, email and phoneNumber on one line: CR, LF and other control characters are 422 naming the field', async () => {
    const before = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key })).json().count;
    const ok = { name: 'Jan Kowalski', email: 'jan@example.com', phoneNumber: '+48 600 100 200' };
    const breaks = ['\r\n', '\n', '\r', '\t', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028'];
    for (const field of ['name', 'email', 'phoneNumber'] as const) {
      for (const bad of breaks) {
        // A header injection as a webhook consumer would meet it: "Jan\r\nBcc: x@example.com".
        const value = field === 'email' ? `jan@example.com${bad}Bcc: x@example.com` : `${ok[field]}${bad}Bcc: x`;
        const res = await submit(project.estate.id, { ...ok, [field]: value });
        expect(res.statusCode, `${field} ${JSON.stringify(bad)}`).toBe(422);
        expect(res.json().message).toMatch(new RegExp(`^Validation failed: ${field} `));
      }
    }
    const named = await submit(project.estate.id, { ...ok, name: 'Jan\nKowalski' });
    expect(named.json().message).toBe('Validation failed: name must be one line with a visible character: no CR, LF or other control characters');
    const mailed = await submit(project.estate.id, { ...ok, email: 'jan@example.com\r\nBcc: x@example.com' });
    expect(mailed.json().message).toContain('email must be one line: no CR, LF or other control characters');
    // One line with letters of any script, and spaces inside, is fine.
    expect((await submit(project.estate.id, { ...ok, name: 'Zoë Łukasiewicz-O’Brien 李' })).statusCode).toBe(201);
    expect((await submit(project.estate.id, { ...ok, name: '   ' })).statusCode).toBe(422);
    const after = (await t.request({ method: 'GET', url: '/api/v1/inquiry', key: a.key })).json().count;
    expect(after).toBe(before + 1);
  });

  it('refuses a referral user of another organization and an unknown estate', async () => {
    const outsider = (
      await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${b.id}/users`, key: ADMIN_TOKEN, body: { email: 'agent@b.example.com' } })
    ).json();
    const res = await submit(project.estate.id, { name: 'Ok', email: 'x@example.com', referralUserId: outsider.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('referralUserId');
    for (const id of [MISSING, 'not-a-uuid']) {
      const missing = await submit(id, { name: 'Ok', email: 'x@example.com' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(`Estate with id ${id} not found`);
    }
  });

  it('loads the referral users of a whole page in a fixed number of queries (no N+1)', async () => {
    const fresh = await createProject(t, a.key);
    for (let i = 0; i < 12; i++) {
      const user = (
        await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${a.id}/users`, key: ADMIN_TOKEN, body: { email: `page${i}@a.example.com` } })
      ).json();
      expect((await submit(fresh.estate.id, { name: `Page ${i}`, email: 'p@example.com', referralUserId: user.id })).statusCode).toBe(201);
    }
    // The real database, only counted: every statement of the request goes through it (the app's
    // webhook delivery worker polls the same database in the background; its statements are not the request's;
    // nor is the key's use, recorded once a minute per key and not awaited by the request: KeyUse).
    let queries = 0;
    const counted: Database = Object.create(t.db, {
      query: {
        value: (sql: string, params?: readonly unknown[]) => {
          if (!isBackground(sql)) queries++;
          return t.db.query(sql, params);
        },
      },
    });
    const app = await buildApp({ config: t.config, db: counted, storage: t.storage, logger: false });
    try {
      // What the app reads once when it starts (the verified hostnames, issue 37) is not the request's.
      await app.ready();
      queries = 0;
      const res = await app.inject({ method: 'GET', url: `/api/v1/inquiry?estateId=${fresh.estate.id}`, headers: { authorization: `Bearer ${a.key}` } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBe(12);
      expect(new Set(body.items.map((i: { referralUser: { id: string } }) => i.referralUser.id)).size).toBe(12);
      // Key lookup, count, page, users, memberships.
      expect(queries).toBeLessThanOrEqual(5);
    } finally {
      await app.close();
    }
  });

  it('answers 401 to an invalid key even on the public submission', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/estates/${project.estate.id}/inquiries`,
      key: 'epk_wrong',
      body: { name: 'Ok', email: 'x@example.com' },
    });
    expect(res.statusCode).toBe(401);
  });
});
