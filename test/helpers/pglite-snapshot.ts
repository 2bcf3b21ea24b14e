import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A migrated PGlite cluster, made once per run from the migrations of the working tree:
     * `dump` is its dumpDataDir() tarball (test databases load it in memory), `dataDir` the
     * closed directory itself (server processes start on a copy as DATA_DIR/pglite).
     */
    pgliteSnapshot: { dump: string; dataDir: string } | undefined;
  }
}

/**
 * Vitest globalSetup. A fresh PGlite cluster runs initdb (seconds of WASM work, 10 s and more on a busy
 * 2-core machine) and then every migration; a test file that starts from this snapshot instead loads
 * a finished cluster (about a fifth of the time). Made at every run, so it never lags a new migration;
 * the helpers still run migrate(), which finds nothing to do and checks every checksum.
 * Not made on the PostgreSQL pass, whose tests create PostgreSQL databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE === 'postgres') {
    project.provide('pgliteSnapshot', undefined);
    return async () => undefined;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pps-pglite-snapshot-'));
  const dataDir = path.join(dir, 'pglite');
  const dump = path.join(dir, 'migrated.tar');
  const db = await openDatabase({ dataDir });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  // The closed directory, opened once more to dump it (the service's Database does not expose PGlite).
  const pglite = await PGlite.create(dataDir);
  try {
    await writeFile(dump, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await pglite.close();
  }
  project.provide('pgliteSnapshot', { dump, dataDir });
  return () => rm(dir, { recursive: true, force: true });
}
