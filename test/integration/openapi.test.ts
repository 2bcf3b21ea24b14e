import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/http/openapi/operations.js';
import { type TestApp, createTestApp } from '../helpers/app.js';

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
};
type Doc = {
  openapi: string;
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
const VERBS = /^(get|list|create|update|delete|set|order|upsert|submit|upload|issue|revoke|rotate|retry|setup|verify)[A-Z]/;

/** `/api/v1/estate/:id` as OpenAPI writes it: `/api/v1/estate/{id}`. */
const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document and docs page', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    doc = res.json() as Doc;
  });
  afterAll(async () => t?.close());

  it('is OpenAPI 3.1 and validates', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    // The validator dereferences in place; it gets its own copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('lists every route of the route table with its method, and documents its responses', () => {
    const routes = t.app.routeTable.filter((r) => !r.hidden && !r.url.startsWith('/docs') && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter((r) => !doc.paths[toOpenApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const undocumented = routes
      .filter((r) => Object.keys(doc.paths[toOpenApiPath(r.url)]![r.method.toLowerCase()]!.responses ?? {}).length === 0)
      .map((r) => `${r.method} ${r.url}`);
    expect(undocumented).toEqual([]);
  });

  it('documents the error body and the partner security scheme', () => {
    const estate = doc.paths['/api/v1/estate/{id}']!.get!;
    expect(estate.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(estate.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(JSON.stringify(doc)).toContain('"statusCode"');
  });

  it('documents the paging headers of every offset/limit list and the list filters', () => {
    const lists = ['/api/v1/estate', '/api/v1/building', '/api/v1/apartment', '/api/v1/asset', '/api/v1/inquiry', '/api/v1/apartment/{id}/inquiries'];
    for (const path of lists) {
      const ok = (doc.paths[path]!.get as unknown as { responses: Record<string, { headers?: Record<string, { schema: { type: string } }> }> }).responses[
        '200'
      ]!;
      expect(Object.keys(ok.headers ?? {}), path).toEqual(expect.arrayContaining(['X-Total-Count', 'Link']));
      expect(ok.headers!['X-Total-Count']!.schema.type).toBe('integer');
    }
    const parameters = (doc.paths['/api/v1/apartment']!.get as unknown as { parameters: Array<{ name: string; schema: { enum?: string[] } }> }).parameters;
    expect(parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['status', 'apartmentType', 'minPrice', 'maxPrice', 'rooms', 'floor', 'externalId', 'q', 'sort']),
    );
    expect(parameters.find((p) => p.name === 'sort')!.schema.enum).toContain('-priceCents');
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

  it('gives every route a stable camelCase, verb-first operationId from the one table, a summary, a description and a declared tag', () => {
    const routes = t.app.routeTable.filter((r) => !r.hidden && !r.url.startsWith('/docs') && r.method !== 'OPTIONS');
    const withoutId = routes.map((r) => `${r.method} ${toOpenApiPath(r.url)}`).filter((key) => !OPERATION_IDS[key]);
    expect(withoutId).toEqual([]);
    const ids = Object.values(OPERATION_IDS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !VERBS.test(id))).toEqual([]);
    const declared = new Set(doc.tags.map((tag) => tag.name));
    for (const { key, op } of operations()) {
      expect(op.operationId, key).toBe(OPERATION_IDS[key]);
      expect(op.summary, key).toBeTruthy();
      expect(op.description, key).toBeTruthy();
      expect(op.tags?.length, key).toBe(1);
      expect(declared.has(op.tags![0]!), key).toBe(true);
    }
  });

  it('names its error responses and documents the headers clients rely on', () => {
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        // Readiness answers 503 with its own report, not the error body.
        if ((status.startsWith('4') || status.startsWith('5')) && key !== 'GET /health/ready')
          expect(response.$ref, `${key} ${status}`).toMatch(/^#\/components\/responses\//);
        if (!response.$ref) expect(JSON.stringify(response), `${key} ${status}`).not.toContain('Default Response');
      }
    }
    expect(Object.keys(doc.components.responses)).toEqual(expect.arrayContaining(['NotFound', 'UnprocessableEntity', 'TooManyRequests']));
    expect(JSON.stringify(doc.components.responses.TooManyRequests)).toContain('Retry-After');
    const create = doc.paths['/api/v1/estate']!.post!.responses!['201']!;
    expect(Object.keys(create.headers ?? {})).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Idempotent-Replayed']),
    );
    expect(Object.keys(doc.paths['/api/v1/estate/{id}']!.get!.responses!['200']!.headers ?? {})).toContain('ETag');
    // The add-on children are named schemas.
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['GallerySection', 'GalleryItem', 'Poi', 'DownloadsGroup', 'InvestmentFile']));
  });

  it('describes the upload body, the file route, optional security on public reads and a relative server', () => {
    const upload = doc.paths['/api/v1/asset/upload']!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(JSON.stringify(upload.requestBody)).toContain('"format":"binary"');
    const files = doc.paths['/files/{organizationId}/{assetId}']!.get!;
    expect(Object.keys(files.responses ?? {})).toEqual(expect.arrayContaining(['200', '206', '304', '404']));
    expect(files.responses!['200']!.content).toHaveProperty('*/*');
    expect(doc.paths['/api/v1/estates/{estateId}/gallery']!.get!.security).toEqual([{}, { apiKey: [] }]);
    expect(doc.paths['/api/v1/admin/organizations']!.get!.security).toEqual([{ operatorToken: [] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey', 'operatorToken']);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('leaves server-managed fields out of request bodies and writes enumerations as enums in responses', () => {
    for (const { key, op } of operations()) expect(JSON.stringify(op.requestBody ?? {}), key).not.toContain('x-ignored');
    const apartment = JSON.stringify(doc.components.schemas.Apartment);
    expect(apartment).toContain('"enum":["ACTIVE","BOOKED","SOLD","HIDDEN"]');
    expect(JSON.stringify(doc.components.schemas.Estate)).toContain('"enum":["DRAFT","ACTIVE","SUSPENDED","CANCELLED"]');
  });

  it('describes every apartmentData field (meaning, unit, an example) in responses and request bodies', () => {
    type Props = { properties: Record<string, { description?: string; examples?: unknown[] }> };
    const apartment = doc.components.schemas.Apartment as { properties: { apartmentData: Props } };
    const created = doc.paths['/api/v1/apartment']!.post!.requestBody!.content['application/json']!.schema as { properties: { apartmentData: Props } };
    for (const [where, data] of [
      ['Apartment', apartment.properties.apartmentData],
      ['POST /apartment', created.properties.apartmentData],
    ] as const) {
      expect(Object.keys(data.properties), where).toHaveLength(17);
      for (const [field, schema] of Object.entries(data.properties)) {
        expect(schema.description, `${where} ${field}`).toMatch(/\w{3}/);
        expect(schema.examples, `${where} ${field}`).toHaveLength(1);
      }
      expect(data.properties.balcony!.description).toContain('area, not a count');
      expect(data.properties.floorHeight!.description).toContain('in metres');
      expect(data.properties.priceAsterisk!.description).toContain('Footnote to the price');
    }
  });

  it('GET /docs is an HTML page that loads the same document', async () => {
    const page = await t.request({ method: 'GET', url: '/docs' });
    const html = page.statusCode === 302 ? await t.request({ method: 'GET', url: page.headers.location as string }) : page;
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toMatch(/swagger-ui/i);
    // The page's initializer names the document it renders.
    const init = await t.request({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain("resolveUrl('./json')");
    expect(html.body).toContain('/docs/static/swagger-initializer.js');
    const served = await t.request({ method: 'GET', url: '/docs/json' });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual(doc);
  });
});
