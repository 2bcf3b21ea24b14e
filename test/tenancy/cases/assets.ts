import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { multipart, png } from '../../integration/assets-fixtures.js';
import type { ModuleCases, World } from '../types.js';

const pngUpload = () => {
  const { body, headers } = multipart({ filename: 'tenancy.png', type: 'image/png', data: png() });
  return { url: '/api/v1/asset/upload', body: body as unknown, headers };
};

/** A fresh asset of A, for the destructive case (every attempt needs its own). */
async function freshAsset(w: World): Promise<string> {
  const { body, headers } = pngUpload();
  const res = await w.t.request({ method: 'POST', url: '/api/v1/asset/upload', key: w.a.key, body, headers });
  if (res.statusCode !== 201) throw new Error(`asset upload failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

let fileUrl = '';

export const assetCases: ModuleCases = {
  async prepare(w) {
    w.ids.asset = await freshAsset(w);
    // Shown by A's apartment: a publishable key reads only assets a public page shows (the others are 404 to it).
    const shown = await w.t.request({ method: 'PATCH', url: `/api/v1/apartment/${w.ids.apartment}`, key: w.a.key, body: { assetsIds: [w.ids.asset] } });
    if (shown.statusCode !== 200) throw new Error(`attaching the asset failed: ${shown.statusCode} ${shown.body}`);
    // Registration by URL downloads from a loopback server (the tenancy app allows private addresses).
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.unref();
    fileUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tenancy.png`;
  },
  routes: {
    'POST /api/v1/asset/upload': { foreign: 'isolated', request: pngUpload },
    'POST /api/v1/asset': { foreign: 'isolated', request: () => ({ url: '/api/v1/asset', body: { src: fileUrl, name: 'From URL' } }) },
    'GET /api/v1/asset': { foreign: 'isolated', request: () => ({ url: '/api/v1/asset' }) },
    'GET /api/v1/asset/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/asset/${w.ids.asset}` }) },
    'DELETE /api/v1/asset/:id': { foreign: 404, request: async (w) => ({ url: `/api/v1/asset/${await freshAsset(w)}` }) },
  },
};
