import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../helpers/app.js';

type Doc = { openapi: string; paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

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
    const routes = t.app.routeTable.filter((r) => r.url !== '/api/v1/openapi.json' && !r.url.startsWith('/docs') && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter((r) => !doc.paths[toOpenApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const undocumented = routes
      .filter((r) => Object.keys(doc.paths[toOpenApiPath(r.url)]![r.method.toLowerCase()]!.responses ?? {}).length === 0)
      .map((r) => `${r.method} ${r.url}`);
    expect(undocumented).toEqual([]);
  });

  it('documents the error body and the partner security scheme', () => {
    const estate = doc.paths['/api/v1/estate/{id}']!.get as unknown as { security: unknown; responses: Record<string, unknown> };
    expect(estate.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(estate.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(JSON.stringify(doc)).toContain('"statusCode"');
  });

  it('documents the paging headers of every offset/limit list and the list filters', () => {
    const lists = ['/api/v1/estate', '/api/v1/building', '/api/v1/apartment', '/api/v1/asset', '/api/v1/inquiry', '/api/v1/apartment/{id}/inquiries'];
    for (const path of lists) {
      const ok = (doc.paths[path]!.get as unknown as { responses: Record<string, { headers?: Record<string, { schema: { type: string } }> }> }).responses[
        '200'
      ]!;
      expect(Object.keys(ok.headers ?? {}), path).toEqual(['X-Total-Count', 'Link']);
      expect(ok.headers!['X-Total-Count']!.schema.type).toBe('integer');
    }
    const parameters = (doc.paths['/api/v1/apartment']!.get as unknown as { parameters: Array<{ name: string; schema: { enum?: string[] } }> }).parameters;
    expect(parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['status', 'apartmentType', 'minPrice', 'maxPrice', 'rooms', 'floor', 'externalId', 'q', 'sort']),
    );
    expect(parameters.find((p) => p.name === 'sort')!.schema.enum).toContain('-priceCents');
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
