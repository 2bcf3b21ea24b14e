import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, call, expectContiguous, expectError } from '../helpers/addon-kit.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { insertAssetRow } from '../helpers/asset-rows.js';
import { createEstate } from '../helpers/factories.js';

describe('investment add-on', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;
  let readOnly: string;
  let base: string;
  const asset = async (mimeType: string, sizeBytes = 2048, org = a.id) => (await insertAssetRow(t.db, org, { mimeType, sizeBytes, name: 'Prospectus.pdf' })).id;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Investment A');
    b = await t.createOrg('Investment B');
    readOnly = (await t.issueKey(a.id, ['read'])).key;
    base = `/api/v1/estates/${(await createEstate(t, a.key)).id}/investment`;
  });
  afterAll(async () => t?.close());

  it('enables by PUT (created on first call, repeatable) and answers the representation', async () => {
    expect(await call(t, 'PUT', base, a.key, { enabled: true }, 200)).toEqual({ enabled: true, sections: [] });
    expect(await call(t, 'PUT', base, a.key, { enabled: true }, 200)).toEqual({ enabled: true, sections: [] });
    expectError(await t.request({ method: 'PUT', url: base, key: b.key, body: { enabled: true } }), 404, /Estate with id/);
    expectError(await t.request({ method: 'PUT', url: base, key: readOnly, body: { enabled: true } }), 403);
    expectError(await t.request({ method: 'PUT', url: base, body: { enabled: true } }), 401);
  });

  it('sanitises section HTML: scripts, styles, iframes, event handlers and javascript: links go, allowed markup stays', async () => {
    const html =
      '<h2>Returns</h2><p onclick="steal()">Yield <strong>6%</strong> <em>net</em></p><script>alert(1)</script><style>p{color:red}</style>' +
      '<iframe src="https://evil.example"></iframe><ul><li>One</li></ul><ol><li>Two</li></ol><blockquote>Q</blockquote><hr><br>' +
      '<a href="javascript:alert(1)">bad</a><a href="https://example.com" target="_blank">site</a><a href="mailto:x@example.com">mail</a>' +
      '<a href="tel:+48123456789">call</a><img src="x" onerror="alert(1)"><table><tbody><tr><th>Year</th><td>2026</td></tr></tbody></table>';
    const s = await call(t, 'POST', `${base}/sections`, a.key, { title: 'Returns', description: html }, 201);
    const out: string = s.description;
    for (const bad of ['<script', 'alert(1)', '<style', 'color:red', '<iframe', 'onclick', 'onerror', 'javascript:', '<img']) expect(out).not.toContain(bad);
    for (const good of [
      '<h2>Returns</h2>',
      '<strong>6%</strong>',
      '<em>net</em>',
      '<ul><li>One</li></ul>',
      '<ol><li>Two</li></ol>',
      '<blockquote>Q</blockquote>',
      '<hr />',
      '<br />',
      '<th>Year</th><td>2026</td>',
      'href="mailto:x@example.com"',
      'href="tel:+48123456789"',
    ])
      expect(out).toContain(good);
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
    const patched = await call(t, 'PATCH', `${base}/sections/${s.id}`, a.key, { description: '<p>ok</p><script>x()</script>' }, 200);
    expect(patched).toMatchObject({ description: '<p>ok</p>', title: 'Returns' });
    await call(t, 'DELETE', `${base}/sections/${s.id}`, a.key, undefined, 204);
  });

  it('validates sections: 422 naming the field, HTML limit 100,000 characters before sanitising', async () => {
    expectError(await t.request({ method: 'POST', url: `${base}/sections`, key: a.key, body: { description: '<p>x</p>' } }), 422, /title is required/);
    expectError(await t.request({ method: 'POST', url: `${base}/sections`, key: a.key, body: { title: '   ' } }), 422, /title/);
    expectError(
      await t.request({ method: 'POST', url: `${base}/sections`, key: a.key, body: { title: 'x', description: 'a'.repeat(100_001) } }),
      422,
      /description/,
    );
    expect(
      (await t.request({ method: 'POST', url: `${base}/sections`, key: a.key, body: { title: 'Big', description: `<p>${'a'.repeat(99_990)}</p>` } }))
        .statusCode,
    ).toBe(201);
    expectError(await t.request({ method: 'POST', url: `${base}/sections`, key: a.key, body: { title: 'x', order: 'first' } }), 422, /order/);
    expectError(await t.request({ method: 'PATCH', url: `${base}/sections/${MISSING_ID}`, key: a.key, body: { title: 'x' } }), 404, /Investment section/);
    expectError(await t.request({ method: 'PATCH', url: `${base}/sections/xyz`, key: a.key, body: { title: 'x' } }), 404);
  });

  it('orders sections: appended by default, inserted at order, all-or-nothing order PUT', async () => {
    const url = `/api/v1/estates/${(await createEstate(t, a.key)).id}/investment`;
    const s1 = await call(t, 'POST', `${url}/sections`, a.key, { title: 'One' }, 201);
    const s2 = await call(t, 'POST', `${url}/sections`, a.key, { title: 'Two' }, 201);
    const s0 = await call(t, 'POST', `${url}/sections`, a.key, { title: 'Zero', order: 0 }, 201);
    expect([s1.order, s2.order, s0.order]).toEqual([0, 1, 0]);
    const doc = await call(t, 'GET', url, a.key, undefined, 200);
    expect(doc.sections.map((s: { title: string }) => s.title)).toEqual(['Zero', 'One', 'Two']);
    expectContiguous(doc.sections);
    for (const orderedIds of [
      [s0.id, s1.id],
      [s0.id, s1.id, s1.id],
      [s0.id, s1.id, s2.id, MISSING_ID],
      [s0.id, s1.id, MISSING_ID],
    ]) {
      expectError(await t.request({ method: 'PUT', url: `${url}/sections/order`, key: a.key, body: { orderedIds } }), 404);
    }
    expect((await call(t, 'GET', url, a.key)).sections.map((s: { id: string }) => s.id)).toEqual([s0.id, s1.id, s2.id]);
    const ordered = await call(t, 'PUT', `${url}/sections/order`, a.key, { orderedIds: [s2.id, s0.id, s1.id] }, 200);
    expect(ordered.map((s: { id: string }) => s.id)).toEqual([s2.id, s0.id, s1.id]);
    expectContiguous(ordered);
    const moved = await call(t, 'PATCH', `${url}/sections/${s1.id}`, a.key, { order: 0 }, 200);
    expect(moved.order).toBe(0);
    expectContiguous((await call(t, 'GET', url, a.key)).sections);
  });

  it('files: accepted kinds up to 50 MB (400 otherwise), own assets only (404), label, order, detach', async () => {
    const section = await call(t, 'POST', `${base}/sections`, a.key, { title: 'Documents' }, 201);
    const files = `${base}/sections/${section.id}/files`;
    const pdf = await call(t, 'POST', files, a.key, { assetId: await asset('application/pdf'), label: 'Prospectus' }, 201);
    expect(pdf).toMatchObject({ label: 'Prospectus', order: 0, asset: { mimeType: 'application/pdf', sizeBytes: 2048, name: 'Prospectus.pdf' } });
    const defaultLabel = await call(t, 'POST', files, a.key, { assetId: await asset('application/zip') }, 201);
    expect(defaultLabel.label).toBe('Prospectus.pdf');
    for (const mime of ['image/png', 'video/mp4', 'image/vnd.dwg', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'model/ifc']) {
      await call(t, 'POST', files, a.key, { assetId: await asset(mime), label: mime }, 201);
    }
    const exact = await call(t, 'POST', files, a.key, { assetId: await asset('video/mp4', 50 * 1024 * 1024), label: 'Exactly 50 MB', order: 0 }, 201);
    expect(exact.order).toBe(0);

    expectError(await t.request({ method: 'POST', url: files, key: a.key, body: { assetId: await asset('video/mp4', 60 * 1024 * 1024) } }), 400, /50 MB/);
    expectError(
      await t.request({ method: 'POST', url: files, key: a.key, body: { assetId: await asset('application/x-msdownload') } }),
      400,
      /investment files/,
    );
    expectError(await t.request({ method: 'POST', url: files, key: a.key, body: { assetId: await asset('text/html') } }), 400);
    expectError(await t.request({ method: 'POST', url: files, key: a.key, body: { assetId: await asset('application/pdf', 10, b.id) } }), 404, /Asset/);
    expectError(await t.request({ method: 'POST', url: files, key: a.key, body: { label: 'x' } }), 422, /assetId is required/);
    expectError(
      await t.request({ method: 'POST', url: files, key: a.key, body: { assetId: await asset('application/pdf'), label: 'x'.repeat(201) } }),
      422,
      /label/,
    );
    expectError(
      await t.request({ method: 'POST', url: `${base}/sections/${MISSING_ID}/files`, key: a.key, body: { assetId: await asset('application/pdf') } }),
      404,
      /Investment section/,
    );
    expectError(await t.request({ method: 'POST', url: files, key: b.key, body: { assetId: await asset('application/pdf', 10, b.id) } }), 404, /Estate/);

    let list = (await call(t, 'GET', base, a.key)).sections.find((s: { id: string }) => s.id === section.id).files;
    expect(list).toHaveLength(8);
    expectContiguous(list);
    const ids: string[] = list.map((f: { id: string }) => f.id);

    const relabelled = await call(t, 'PATCH', `${files}/${pdf.id}`, a.key, { label: 'Brochure', order: 7 }, 200);
    expect(relabelled).toMatchObject({ label: 'Brochure', order: 7 });
    expectError(await t.request({ method: 'PATCH', url: `${files}/${pdf.id}`, key: a.key, body: { assetId: MISSING_ID } }), 422, /assetId/);
    const other = await call(t, 'POST', `${base}/sections`, a.key, { title: 'Other' }, 201);
    expectError(
      await t.request({ method: 'PATCH', url: `${base}/sections/${other.id}/files/${pdf.id}`, key: a.key, body: { label: 'x' } }),
      404,
      /Investment file/,
    );

    const reversed = ids.slice().reverse();
    expectError(await t.request({ method: 'PUT', url: `${files}/order`, key: a.key, body: { orderedIds: reversed.slice(1) } }), 404);
    const ordered = await call(t, 'PUT', `${files}/order`, a.key, { orderedIds: reversed }, 200);
    expect(ordered.map((f: { id: string }) => f.id)).toEqual(reversed);

    await call(t, 'DELETE', `${files}/${reversed[3]}`, a.key, undefined, 204);
    list = (await call(t, 'GET', base, a.key)).sections.find((s: { id: string }) => s.id === section.id).files;
    expect(list.map((f: { id: string }) => f.id)).toEqual(reversed.filter((_, i) => i !== 3));
    expectContiguous(list);
    expectError(await t.request({ method: 'DELETE', url: `${files}/${reversed[3]}`, key: a.key }), 404);

    await call(t, 'DELETE', `${base}/sections/${section.id}`, a.key, undefined, 204);
    expect((await call(t, 'GET', base, a.key)).sections.find((s: { id: string }) => s.id === section.id)).toBeUndefined();
  });
});
