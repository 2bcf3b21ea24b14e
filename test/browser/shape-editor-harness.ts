import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import sharp from 'sharp';
import { ROOT } from '../helpers/processes.js';
import { call, upload } from './seed.js';
import { ADMIN_TOKEN } from './server.js';

/**
 * A page for the shape editor island before the dashboard exists (issue 36, phase 1), served only by
 * tests: `/editor?frame=<id>` renders the island's root element as the dashboard screen will (data
 * attributes and JSON data, see src/modules/shape-editor/index.ts), the island bundled with esbuild
 * as the build does, and every other path proxied to the real server. The harness signs API calls
 * with the organization's key, as the dashboard will sign them with the session: the island's store
 * only knows URLs.
 */
export interface Harness {
  url: string;
  key: string;
  navigatorId: string;
  /** Two frames of a 1600 × 1200 render. */
  frames: Array<{ id: string; name: string }>;
  apartments: Array<{ id: string; name: string; externalId: string }>;
  building: { id: string; name: string };
  render: { width: number; height: number };
  /** Brotli bytes of the island's bundle (script and stylesheet), as the build would serve them. */
  bytes: { js: number; jsBrotli: number; css: number };
  close(): Promise<void>;
}

export const RENDER = { width: 1600, height: 1200 };
export const APARTMENT_COUNT = 12;

/** A 4:3 render with a grid, so screenshots show where shapes were drawn. */
async function renderImage(): Promise<Buffer> {
  const lines = [];
  for (let x = 0; x <= RENDER.width; x += 100) lines.push(`<line x1="${x}" y1="0" x2="${x}" y2="${RENDER.height}" stroke="#9ca3af"/>`);
  for (let y = 0; y <= RENDER.height; y += 100) lines.push(`<line x1="0" y1="${y}" x2="${RENDER.width}" y2="${y}" stroke="#9ca3af"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${RENDER.width}" height="${RENDER.height}"><rect width="100%" height="100%" fill="#e5e7eb"/>${lines.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function seed(base: string) {
  const org = await call(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Editor Developments' });
  const key = org.apiKey as string;
  const setup = await call(base, 'POST', '/api/v1/estate/setup', key, { name: 'Editor Park', buildingName: 'Tower E' });
  const specs = Array.from({ length: APARTMENT_COUNT }, (_, i) => ({
    name: `E-${String(i + 1).padStart(2, '0')}`,
    externalId: `crm-e-${i + 1}`,
    status: ['ACTIVE', 'BOOKED', 'SOLD'][i % 3],
  }));
  const bulk = await call(base, 'POST', '/api/v1/apartment/bulk', key, { buildingId: setup.building.id, apartments: specs });
  const asset = await upload(base, key, await renderImage(), 'image/png', 'render.png');
  const navigatorId = setup.navigator.id as string;
  const frames = [];
  for (const angle of [0, 90]) {
    const frame = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle, name: `View ${angle}°` });
    frames.push({ id: frame.id as string, name: frame.name as string });
  }
  return {
    key,
    navigatorId,
    frames,
    apartments: specs.map((s, i) => ({ id: bulk.ids[i] as string, name: s.name, externalId: s.externalId, status: s.status })),
    building: { id: setup.building.id as string, name: 'Tower E' },
  };
}

/** The island's bundle, built as the dashboard's build will (esbuild, minified, the page's targets). */
async function bundle() {
  const common: BuildOptions & { write: false } = {
    bundle: true,
    minify: true,
    write: false,
    legalComments: 'none',
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
  };
  const js = await build({
    ...common,
    stdin: {
      contents: "import { initShapeEditors } from './shape-editor.client.ts'; initShapeEditors();",
      resolveDir: path.join(ROOT, 'src/modules/shape-editor/client'),
      loader: 'ts',
    },
    format: 'esm',
  });
  const importer = await build({ ...common, entryPoints: [path.join(ROOT, 'src/modules/shape-editor/client/svg-import.entry.ts')], format: 'esm' });
  const css = await build({ ...common, entryPoints: [path.join(ROOT, 'src/modules/shape-editor/client/shape-editor.css')] });
  return { js: js.outputFiles[0]!.text, importer: importer.outputFiles[0]!.text, css: css.outputFiles[0]!.text };
}

export async function startHarness(base: string): Promise<Harness> {
  const seeded = await seed(base);
  const assets = await bundle();
  const { brotliCompressSync, constants } = await import('node:zlib');
  const jsBrotli = brotliCompressSync(Buffer.from(assets.js), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const references = [
    ...seeded.apartments.map((a) => ({ referenceType: 'apartment', referenceId: a.id, name: a.name, externalId: a.externalId, status: a.status })),
    { referenceType: 'building', referenceId: seeded.building.id, name: seeded.building.name },
  ];

  const page = async (frameId: string) => {
    const nav = await call(base, 'GET', `/api/v1/navigator/${seeded.navigatorId}`, seeded.key);
    const frame = nav.images.find((f: { id: string }) => f.id === frameId);
    const shapesRes = await fetch(`${base}/api/v1/navigator/${seeded.navigatorId}/images/${frameId}/shapes`, {
      headers: { authorization: `Bearer ${seeded.key}` },
    });
    const shapes = await shapesRes.json();
    const api = `/api/v1/navigator/${seeded.navigatorId}/images`;
    const json = (attribute: string, value: unknown) =>
      h('script', { type: 'application/json', [attribute]: '', dangerouslySetInnerHTML: { __html: JSON.stringify(value).replace(/</g, '\\u003c') } });
    const root = h(
      'div',
      {
        'data-module': 'shape-editor',
        'data-render-src': String(frame.imageUrl).replace(base, ''),
        'data-render-width': String(frame.asset.width),
        'data-render-height': String(frame.asset.height),
        'data-shapes-url': `${api}/${frameId}/shapes`,
        'data-frame-shapes-url': `${api}/{frameId}/shapes`,
        'data-shapes-etag': shapesRes.headers.get('etag') ?? '',
        'data-import-src': '/editor-import.js',
      },
      json('data-shapes', shapes),
      json('data-references', references),
      json(
        'data-frames',
        seeded.frames.filter((f) => f.id !== frameId),
      ),
    );
    const body = h('main', {}, h('h1', {}, `Shapes of ${frame.name}`), root);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shape editor harness</title><link rel="stylesheet" href="/editor.css"></head><body>${renderToString(body)}<script type="module" src="/editor.js"></script></body></html>`;
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://harness');
      if (url.pathname === '/editor') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(await page(url.searchParams.get('frame') ?? ''));
      } else if (url.pathname === '/editor.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(assets.js);
      else if (url.pathname === '/editor-import.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(assets.importer);
      else if (url.pathname === '/editor.css') res.writeHead(200, { 'content-type': 'text/css' }).end(assets.css);
      else if (url.pathname === '/favicon.ico') res.writeHead(204).end();
      else {
        // Everything else is the service's: API calls signed with the key, files as they are.
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'if-match', 'if-none-match', 'accept']) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        if (url.pathname.startsWith('/api/')) headers.authorization = `Bearer ${seeded.key}`;
        const answer = await fetch(base + url.pathname + url.search, {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const out: Record<string, string> = {};
        for (const name of ['content-type', 'etag', 'cache-control']) {
          const value = answer.headers.get(name);
          if (value) out[name] = value;
        }
        res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      }
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    key: seeded.key,
    navigatorId: seeded.navigatorId,
    frames: seeded.frames,
    apartments: seeded.apartments,
    building: seeded.building,
    render: RENDER,
    bytes: { js: assets.js.length, jsBrotli, css: assets.css.length },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
