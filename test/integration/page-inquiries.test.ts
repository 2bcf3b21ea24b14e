import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/storage/s3.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { type SeededPage, formBody, seedPage } from '../helpers/page-seed.js';
import { type Driver, s3Driver, s3rverOptions } from './assets-fixtures.js';

const form = formBody;

/** The page's inquiry form sent twice stores one inquiry; nobody can ask about a HIDDEN home (issue 33). */
describe('the page’s inquiry form: one inquiry per form, never about a hidden home', () => {
  let t: TestApp;
  let a: TestOrg;
  let seed: SeededPage;
  const post = (body: string) =>
    t.app.inject({ method: 'POST', url: `/p/${seed.slug}/inquiry`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
  const stored = async () =>
    (await t.request({ method: 'GET', url: `/api/v1/inquiry?estateId=${seed.estateId}&limit=500`, key: a.key })).json().items as Array<{
      name: string;
      apartmentIds: string[];
    }>;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_INQUIRY_MAX: '1000' } });
    a = await t.createOrg('Inquiries');
    seed = await seedPage(t, a.id, a.key, 4, 'Inquiry Estate');
    expect((await t.request({ method: 'PUT', url: `/api/v1/estates/${seed.estateId}/page`, key: a.key, body: { enabled: true } })).statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it('without JavaScript, the same form sent twice (a double click, a reload of the post) stores one inquiry and answers both with the thanks', async () => {
    const body = form({ name: 'Double Click', email: 'double@example.com', info: 'Call me', inquiryKey: '', website: '' });
    const first = await post(body);
    const second = await post(body);
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/p/${seed.slug}?sent=1#inquiry`);
    }
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((await stored()).filter((i) => i.name === 'Double Click')).toHaveLength(1);
    // What the form says is the key: another message is another inquiry.
    expect((await post(form({ name: 'Double Click', email: 'double@example.com', info: 'Call me tomorrow' }))).statusCode).toBe(303);
    expect((await stored()).filter((i) => i.name === 'Double Click')).toHaveLength(2);
  });

  it('with the browser code’s one-time key, a form sent again with its key stores one inquiry; sent at once, too', async () => {
    const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const body = form({ name: 'Keyed', email: 'keyed@example.com', inquiryKey: key });
    expect((await post(body)).statusCode).toBe(303);
    const again = await post(body);
    expect(again.statusCode).toBe(303);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await stored()).filter((i) => i.name === 'Keyed')).toHaveLength(1);

    const both = await Promise.all(
      [0, 1].map(() => post(form({ name: 'At Once', email: 'once@example.com', inquiryKey: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }))),
    );
    // One stores it; the other replays its answer, or (PostgreSQL, while the first still runs) says it is being sent.
    for (const res of both) expect([303, 409]).toContain(res.statusCode);
    expect(both.some((res) => res.statusCode === 303)).toBe(true);
    expect((await stored()).filter((i) => i.name === 'At Once')).toHaveLength(1);
  });

  it('a HIDDEN apartment’s id is 422 naming apartmentIds, from the public endpoint and from the page form; nothing is stored', async () => {
    const hidden = seed.apartments.find((x) => x.status === 'HIDDEN')!;
    const shown = seed.apartments.find((x) => x.status === 'ACTIVE')!;
    const api = await t.request({
      method: 'POST',
      url: `/api/v1/estates/${seed.estateId}/inquiries`,
      body: { name: 'Hidden Ask', email: 'hidden@example.com', apartmentIds: [shown.id, hidden.id] },
    });
    expect(api.statusCode).toBe(422);
    expect(api.json().message).toContain('apartmentIds');
    expect(api.json().message).toContain(hidden.id);
    const page = await post(form({ name: 'Hidden Ask', email: 'hidden@example.com', apartmentIds: hidden.id }));
    expect(page.statusCode).toBe(422);
    expect(page.body).toContain('id="inquiry-form-error"');
    expect(page.body).toContain('Choose homes of this project.');
    expect((await stored()).filter((i) => i.name === 'Hidden Ask')).toHaveLength(0);
    const fine = await t.request({
      method: 'POST',
      url: `/api/v1/estates/${seed.estateId}/inquiries`,
      body: { name: 'Shown Ask', email: 'shown@example.com', apartmentIds: [shown.id] },
    });
    expect(fine.statusCode).toBe(201);
  });

  it('a name, e-mail or phone number with a line break or a control character is the form again (422) with that field’s error; nothing is stored', async () => {
    const cases = [
      ['name', 'Line\r\nBreak', 'Enter your name on one line, without line breaks or control characters.'],
      ['name', 'Bell\u0007Name', 'Enter your name on one line, without line breaks or control characters.'],
      ['email', 'line@example.com\nBcc: x@example.com', 'Enter the e-mail address on one line, without line breaks or control characters.'],
      ['phoneNumber', '+48 600\r\n100 200', 'Enter a phone number: digits, with + ( ) . - / and spaces if you like.'],
    ] as const;
    for (const [field, value, message] of cases) {
      const fields: Record<string, string> = { name: 'Line Break', email: 'line@example.com', [field]: value };
      const page = await post(form(fields));
      expect(page.statusCode, field).toBe(422);
      expect(page.body).toContain(`id="inquiry-${field}-error"`);
      expect(page.body).toContain(`aria-describedby="inquiry-${field}-error"`);
      expect(page.body).toContain(message.replaceAll("'", '&#39;'));
    }
    expect((await stored()).filter((i) => i.name.startsWith('Line') || i.name.startsWith('Bell'))).toHaveLength(0);
  });
});

describe('the page’s image origins come from the storage configuration', () => {
  let driver: Driver;
  let t: TestApp;

  beforeAll(async () => {
    driver = await s3Driver();
    const endpoint = new URL(driver.bucketUrl!).origin;
    t = await createTestApp({
      env: { PUBLIC_URL: 'https://homes.example.com' },
      storage: () => new S3BlobStore({ ...s3rverOptions(endpoint), publicBaseUrl: 'https://cdn.example.net/assets' }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await driver?.stop();
  });

  it('with S3_PUBLIC_URL, an estate without a single frame allows the bucket’s and PUBLIC_URL’s origins for its images', async () => {
    const org = await t.createOrg('No Frames');
    const setup = (await t.request({ method: 'POST', url: '/api/v1/estate/setup', key: org.key, body: { name: 'Frameless' } })).json();
    expect((await t.request({ method: 'PUT', url: `/api/v1/estates/${setup.estate.id}/page`, key: org.key, body: { enabled: true } })).statusCode).toBe(200);
    const res = await t.request({ method: 'GET', url: `/p/${setup.estate.slug}` });
    expect(res.statusCode).toBe(200);
    const images = /img-src ([^;]+)/.exec(String(res.headers['content-security-policy']))![1]!.split(' ');
    expect(images).toEqual(expect.arrayContaining(["'self'", 'data:', 'https://homes.example.com', 'https://cdn.example.net']));
  });
});
