/**
 * Writes the OpenAPI document the service serves (GET /api/v1/openapi.json) to a file, from the app
 * itself on an in-memory database: the input of `npm run openapi:lint` and of the TypeScript client.
 * Usage: tsx scripts/openapi-document.ts <out.json>
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { DiskBlobStore } from '../src/storage/disk.js';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx scripts/openapi-document.ts <out.json>\n');
  process.exit(2);
}
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-openapi-'));
const db = await openDatabase({});
try {
  await migrate(db);
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: 'openapi-document-only-0123456789', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' });
  const app = await buildApp({ config, db, storage: new DiskBlobStore(path.join(dataDir, 'files')), logger: false, imageJobs: 'on-demand' });
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  await app.close();
  if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
  await writeFile(out, `${JSON.stringify(res.json(), null, 2)}\n`);
} finally {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
}
