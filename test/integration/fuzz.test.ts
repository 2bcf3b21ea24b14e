import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyFor, deepNesting, nastyJson, nastyString, validFor } from '../fuzz/arbitraries.js';
import { integrityViolations } from '../fuzz/integrity.js';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { createProject } from '../helpers/factories.js';
import { multipart, png } from './assets-fixtures.js';

/**
 * Property-based fuzzing over every operation of the OpenAPI document: random and boundary bodies,
 * query strings and path ids. Properties: no 5xx; every error carries the spec's body with statusCode
 * equal to the HTTP status; afterwards the stored data breaks no invariant and holds exactly the
 * records whose creation was acknowledged. FUZZ_RUNS and FUZZ_SEED scale and replay a run
 * (`npm run fuzz` runs 30,000); CI (`CI=true`) runs 2,000, a local `npm test` 400.
 */
/** CI runs 2,000 cases; a developer's `npm test` on a busy laptop 400 (the same generators, fewer draws). */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI ? 2000 : 400));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

interface Operation {
  method: string;
  path: string;
  bodySchema: unknown;
  queryNames: string[];
}

describe('fuzzing every route of the OpenAPI document', () => {
  let t: TestApp;
  let a: TestOrg;
  let ids: Record<string, string>;
  let operations: Operation[];
  /** Creations the service acknowledged, by table: the database must hold exactly these afterwards. */
  const acknowledged = { estates: 1, buildings: 1, apartments: 1 };
  const countAcknowledged = (method: string, path: string, status: number, body: string) => {
    // An upsert answers 200 and says how many apartments it created.
    if (method === 'POST' && path === '/api/v1/apartment/upsert' && status === 200)
      acknowledged.apartments += (JSON.parse(body) as { created: number }).created;
    if (method !== 'POST' || status !== 201) return;
    if (path === '/api/v1/estate') acknowledged.estates++;
    if (path === '/api/v1/estate/setup') {
      acknowledged.estates++;
      acknowledged.buildings++;
    }
    if (path === '/api/v1/building') acknowledged.buildings++;
    if (path === '/api/v1/apartment') acknowledged.apartments++;
    if (path === '/api/v1/apartment/bulk') acknowledged.apartments += (JSON.parse(body) as { created: number }).created;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_KEY_MAX: '100000000', RATE_LIMIT_ANONYMOUS_MAX: '100000000', RATE_LIMIT_INQUIRY_MAX: '100000000' } });
    a = await t.createOrg('Fuzz A');
    const project = await createProject(t, a.key);
    ids = { estateId: project.estate.id, buildingId: project.building.id, apartmentId: project.apartment.id, organizationId: a.id };
    // Real children to aim at, so hostile bodies also reach the add-on and asset write paths.
    const upload = multipart({ filename: 'fuzz.png', type: 'image/png', data: png() });
    const asset = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body: upload.body, headers: upload.headers });
    ids.assetId = asset.json().id;
    const logo = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: a.key, body: upload.body, headers: upload.headers });
    ids.logoAssetId = logo.json().id;
    const base = `/api/v1/estates/${ids.estateId}`;
    for (const addon of ['investment', 'gallery', 'map', 'downloads'])
      await t.request({ method: 'PUT', url: `${base}/${addon}`, key: a.key, body: { enabled: true } });
    ids.sectionId = (await t.request({ method: 'POST', url: `${base}/gallery/sections`, key: a.key, body: { title: 'Fuzz' } })).json().id;
    ids.groupId = (await t.request({ method: 'POST', url: `${base}/downloads/groups`, key: a.key, body: { title: 'Fuzz' } })).json().id;
    ids.investmentSectionId = (
      await t.request({ method: 'POST', url: `${base}/investment/sections`, key: a.key, body: { title: 'Fuzz', description: '<p>x</p>' } })
    ).json().id;
    // A navigator with a frame: the navigator routes' `{imageId}` aims at it, `{id}` some of the time.
    const setup = (await t.request({ method: 'POST', url: '/api/v1/estate/setup', key: a.key, body: { name: 'Fuzz navigator' } })).json();
    acknowledged.estates++;
    acknowledged.buildings++;
    ids.navigatorId = setup.navigator.id;
    const frame = await t.request({ method: 'POST', url: `/api/v1/navigator/${ids.navigatorId}/images`, key: a.key, body: { assetId: ids.assetId, angle: 0 } });
    ids.imageId = frame.json().id;
    for (const [name, id] of Object.entries(ids)) if (typeof id !== 'string') throw new Error(`fuzz world: ${name} was not created`);
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> }; parameters?: Array<{ in: string; name: string }> }>
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        bodySchema: op.requestBody?.content?.['application/json']?.schema,
        queryNames: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
    );
  });
  afterAll(async () => t?.close());

  it('finds operations to fuzz', () => {
    expect(operations.length).toBeGreaterThan(10);
  });

  it(
    'never answers 5xx and always answers errors in the spec shape',
    async () => {
      const validIds = () => Object.values(ids);
      // A path parameter gets the world's id of its own name most of the time, any id or hostile text otherwise.
      const idsFor = (param: string) => {
        const named = Object.entries(ids).filter(([k]) => k === param || (param === 'sectionId' && k.endsWith('ectionId')));
        return named.length ? named.map(([, v]) => v) : validIds();
      };
      const pathArb = (path: string, strict = false) =>
        fc
          .tuple(
            ...(path.match(/\{[^}]+\}/g) ?? []).map((p) =>
              strict
                ? fc.constantFrom(...idsFor(p.slice(1, -1)))
                : fc.oneof(
                    { weight: 4, arbitrary: fc.constantFrom(...idsFor(p.slice(1, -1))) },
                    { weight: 1, arbitrary: fc.constantFrom(...validIds()) },
                    { weight: 1, arbitrary: nastyString },
                  ),
            ),
          )
          .map((values) => {
            let i = 0;
            // A URL carries UTF-8: a lone surrogate cannot be sent in one (it travels as U+FFFD).
            return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(Buffer.from(String(values[i++])).toString()));
          });

      // Half the cases are well-formed (owner key, JSON, a body the schema accepts, the world's ids) so
      // the services, SQL and ordering code run; the other half are hostile in every dimension.
      const wellFormed = fc.constantFrom(...operations).chain((op) =>
        fc.record({
          op: fc.constant(op),
          url: pathArb(op.path, true),
          query: fc.constant({} as Record<string, string>),
          body: validFor(op.bodySchema as never, ids),
          auth: fc.constant('owner'),
          contentType: fc.constant('application/json'),
        }),
      );
      const hostile = fc.constantFrom(...operations).chain((op) =>
        fc.record({
          op: fc.constant(op),
          url: pathArb(op.path),
          query: fc.dictionary(
            fc.oneof(fc.constantFrom(...(op.queryNames.length ? op.queryNames : ['x'])), fc.string({ maxLength: 6 })),
            nastyString.map(String),
            { maxKeys: 3 },
          ),
          body: fc.oneof(
            { weight: 5, arbitrary: bodyFor(op.bodySchema as never, ids) },
            { weight: 1, arbitrary: nastyJson },
            { weight: 1, arbitrary: deepNesting },
            { weight: 1, arbitrary: fc.constantFrom('{"a":', '[]', '"str"', 'null', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}') },
          ),
          auth: fc.constantFrom('owner', 'owner', 'owner', 'none', 'admin'),
          contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/json; charset=utf-16'),
        }),
      );
      const request = fc.oneof(wellFormed, hostile);

      await fc.assert(
        fc.asyncProperty(request, async ({ op, url, query, body, auth, contentType }) => {
          const hasBody = !['GET', 'DELETE', 'HEAD'].includes(op.method);
          const payload = hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined;
          const search = new URLSearchParams(query).toString();
          const res = await t.app.inject({
            method: op.method as never,
            url: search ? `${url}?${search}` : url,
            headers: {
              ...(auth === 'owner' ? { authorization: `Bearer ${a.key}` } : auth === 'admin' ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
              ...(hasBody ? { 'content-type': contentType } : {}),
            },
            ...(payload !== undefined ? { payload } : {}),
          });
          countAcknowledged(op.method, op.path, res.statusCode, res.body);
          if (res.statusCode >= 500) throw new Error(`${op.method} ${url} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
          if (res.statusCode >= 400) {
            const parsed = res.json() as { statusCode: unknown; message: unknown; error: unknown };
            if (parsed.statusCode !== res.statusCode || typeof parsed.message !== 'string' || typeof parsed.error !== 'string') {
              throw new Error(`${op.method} ${url} -> ${res.statusCode} with a body not in the error shape: ${res.body.slice(0, 300)}`);
            }
          }
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), verbose: 1 },
      );
      expect(Object.getPrototypeOf({}).admin, 'prototype polluted').toBeUndefined();
    },
    // Generous: a shared CI machine under load runs a case in tens of milliseconds, sometimes hundreds.
    RUNS * 250 + 60_000,
  );

  it('leaves no partial writes and no broken references', async () => {
    expect(await integrityViolations(t.db)).toEqual([]);
    const [counts] = await t.db.query<typeof acknowledged>(
      'SELECT (SELECT count(*)::int FROM estates) AS estates, (SELECT count(*)::int FROM buildings) AS buildings, (SELECT count(*)::int FROM apartments) AS apartments',
    );
    expect(counts).toEqual(acknowledged);
  });
});
