import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';
import { diskDriver, multipart, png } from './assets-fixtures.js';

/**
 * Regression tests for input that is valid on the wire but not storable text (issue 9, finding 1),
 * and for multipart bodies that are malformed, carry more than one file or an empty one (findings 2,
 * 4, 8). Each refusal is checked to keep nothing: no row, no file.
 */
describe('hostile input', () => {
  let t: TestApp;
  let a: TestOrg;
  let ids: { estateId: string; buildingId: string; apartmentId: string };

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Hostile');
    const p = await createProject(t, a.key);
    ids = { estateId: p.estate.id, buildingId: p.building.id, apartmentId: p.apartment.id };
  });
  afterAll(async () => t?.close());

  /** Every user-text table, as text: a refused value must leave no trace, neither as sent nor as U+FFFD. */
  const storedText = async () => {
    const tables = ['estates', 'buildings', 'apartments', 'inquiries', 'gallery_sections', 'investment_sections', 'map_pois', 'downloads_groups', 'assets'];
    const out: Record<string, string> = {};
    for (const table of tables) {
      const [row] = await t.db.query<{ text: string | null }>(`SELECT string_agg(x::text, '|' ORDER BY x.id) AS text FROM ${table} x`);
      out[table] = row?.text ?? '';
    }
    return out;
  };

  describe('lone UTF-16 surrogates and NUL in JSON bodies (finding 1)', () => {
    const cases = (): Array<[string, string, string, unknown, string]> => {
      const estate = `/api/v1/estates/${ids.estateId}`;
      return [
        ['POST', '/api/v1/estate', 'name', { name: 'Park \ud800' }, 'name'],
        ['POST', '/api/v1/estate', 'description', { name: 'Fine', description: 'x\udfffy' }, 'description'],
        ['PATCH', `/api/v1/estate/${ids.estateId}`, 'name', { name: '\udc00' }, 'name'],
        ['POST', '/api/v1/apartment', 'name', { name: 'A\ud800', buildingId: ids.buildingId }, 'name'],
        [
          'POST',
          '/api/v1/apartment/bulk',
          'bulk item name',
          { buildingId: ids.buildingId, apartments: [{ name: 'B1' }, { name: 'B2' }, { name: 'B3' }, { name: 'B4\ud800' }] },
          'apartments[3].name',
        ],
        ['PATCH', `/api/v1/apartment/${ids.apartmentId}`, 'apartmentData value', { apartmentData: { foo: 'bar\ud800' } }, 'apartmentData.foo'],
        ['PATCH', `/api/v1/apartment/${ids.apartmentId}`, 'apartmentData key', { apartmentData: { 'k\ud800': 1 } }, 'apartmentData.k\\ud800'],
        ['PATCH', `/api/v1/building/${ids.buildingId}`, 'feature name', { features: [{ name: 'Gym\ud800', type: 'gym' }] }, 'features[0].name'],
        ['POST', `${estate}/gallery/sections`, 'section title', { title: 'T\ud800' }, 'title'],
        ['POST', `${estate}/investment/sections`, 'section title', { title: 'T\udbff', description: '<p>x</p>' }, 'title'],
        ['POST', `${estate}/map/pois`, 'POI label', { category: 'PARKS', label: 'Park\ud800', lat: 52, lng: 21 }, 'label'],
        ['POST', `${estate}/downloads/groups`, 'group title', { title: '\ud800' }, 'title'],
        ['POST', `${estate}/inquiries`, 'inquiry name', { name: 'Jan\ud800', email: 'jan@example.com' }, 'name'],
        ['POST', `${estate}/inquiries`, 'inquiry info', { name: 'Jan', email: 'jan@example.com', info: 'hello \udfff' }, 'info'],
      ];
    };

    it('answers 422 naming the field, on every route, and stores nothing', async () => {
      const before = await storedText();
      for (const [method, url, what, body, field] of cases()) {
        const res = await t.request({ method: method as never, url, key: a.key, body });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
        expect(res.json(), what).toEqual({
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: `Validation failed: ${field} must be valid Unicode text`,
        });
      }
      expect(await storedText()).toEqual(before);
    });

    it('refuses NUL the same way, in the body and in the query string', async () => {
      const body = await t.request({ method: 'PATCH', url: `/api/v1/apartment/${ids.apartmentId}`, key: a.key, body: { apartmentData: { foo: 'a\u0000' } } });
      expect(body.statusCode).toBe(422);
      expect(body.json().message).toBe('Validation failed: apartmentData.foo must not contain NUL characters');
      const query = await t.request({ method: 'GET', url: '/api/v1/asset?mimeType=image%00', key: a.key });
      expect(query.statusCode).toBe(422);
      expect(query.json().message).toBe('Validation failed: mimeType must not contain NUL characters');
    });

    it('keeps what is valid Unicode: emoji (paired surrogates), combining marks, bidi controls', async () => {
      const name = 'Dom 😀 e\u0301 \u202eabc\u202c 漢字';
      const res = await t.request({ method: 'POST', url: '/api/v1/estate', key: a.key, body: { name } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().name).toBe(name);
      const read = await t.request({ method: 'GET', url: `/api/v1/estate/${res.json().id}`, key: a.key });
      expect(read.json().name).toBe(name);
    });
  });

  describe('multipart uploads (findings 1, 2, 4, 8)', () => {
    const files = diskDriver();
    const rowCount = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assets'))[0]!.n);
    const upload = (body: string | Buffer, contentType: string) =>
      t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body, headers: { 'content-type': contentType } });
    const part = (field: string, filename: string | undefined, data: string) =>
      `--b\r\nContent-Disposition: form-data; name="${field}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${data}\r\n`;

    /** Runs a refused upload and checks that neither a row nor a stored file (or partial write) is left. */
    const refused = async (body: string | Buffer, contentType: string, status: number, message: string | RegExp) => {
      const rows = await rowCount();
      const stored = await files.listAll(t.dataDir);
      const res = await upload(body, contentType);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().statusCode).toBe(status);
      expect(res.json().message).toMatch(message);
      expect(await rowCount()).toBe(rows);
      expect(await files.listAll(t.dataDir)).toEqual(stored);
    };

    it('answers 400 for multipart/form-data without a boundary', async () => {
      await refused(`${part('file', 'a.txt', 'hello')}--b--\r\n`, 'multipart/form-data', 400, /multipart body cannot be read.*[Bb]oundary/);
    });

    it('answers 400 for a body missing its closing boundary, and keeps nothing', async () => {
      await refused(part('file', 'a.txt', 'hello'), 'multipart/form-data; boundary=b', 400, /multipart body cannot be read/);
      await refused(`${part('file', 'a.png', 'x'.repeat(10_000))}--b`, 'multipart/form-data; boundary=b', 400, /multipart body cannot be read/);
      await refused(
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n',
        'multipart/form-data; boundary=b',
        400,
        /multipart body cannot be read/,
      );
    });

    it('refuses two files under file, or file plus another file field, naming the part, and keeps nothing', async () => {
      const ct = 'multipart/form-data; boundary=b';
      await refused(`${part('file', 'a.txt', 'one')}${part('file', 'b.txt', 'two')}--b--\r\n`, ct, 400, /unexpected file part "file"/);
      await refused(`${part('file', 'a.txt', 'one')}${part('photo', 'b.png', 'two')}--b--\r\n`, ct, 400, /unexpected file part "photo"/);
      await refused(`${part('file', 'a.txt', 'one')}${part('name', undefined, 'late')}--b--\r\n`, ct, 400, /unexpected field part "name"/);
      await refused(`${part('note', undefined, 'x')}${part('file', 'a.txt', 'one')}--b--\r\n`, ct, 400, /unexpected field part "note"/);
      await refused(`${part('file', 'a.txt', 'one')}${part('file', 'b.txt', 'two')}${part('file', 'c.txt', 'three')}--b--\r\n`, ct, 400, /./);
    });

    it('refuses an empty file with 422 naming file, and keeps nothing', async () => {
      const empty = multipart({ filename: 'empty.txt', type: 'text/plain', data: Buffer.alloc(0) });
      await refused(empty.body, empty.headers['content-type']!, 422, 'Validation failed: file is empty (0 bytes)');
    });

    it('refuses a name field or a file name that is not storable text, naming it', async () => {
      const ct = 'multipart/form-data; boundary=b';
      await refused(
        `${part('name', undefined, 'a\u0000b')}${part('file', 'a.txt', 'one')}--b--\r\n`,
        ct,
        422,
        'Validation failed: name must not contain NUL characters',
      );
      // busboy decodes RFC 2231 file names; UTF-16LE bytes 00 D8 are a lone high surrogate.
      const utf16 = '--b\r\nContent-Disposition: form-data; name="file"; filename*=utf-16le\'\'%00%D8\r\n\r\nhello\r\n--b--\r\n';
      await refused(utf16, ct, 422, 'Validation failed: file name (filename) must be valid Unicode text');
    });

    it('still stores a valid upload with its name (the refusals above are not a blanket refusal)', async () => {
      const ok = multipart({ filename: 'a.png', type: 'image/png', data: png() }, { name: 'Facade 😀' });
      const res = await upload(ok.body, ok.headers['content-type']!);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name: 'Facade 😀', mimeType: 'image/png', sizeBytes: png().length });
    });
  });
});
