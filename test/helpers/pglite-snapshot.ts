import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { projectRoot } from '../../src/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A migrated PGlite cluster, made from the migrations of the working tree (and kept for the next run):
     * `dump` is its dumpDataDir() tarball (test databases load it in memory), `dataDir` the
     * closed directory itself (server processes start on a copy as DATA_DIR/pglite).
     */
    pgliteSnapshot: { dump: string; dataDir: string } | undefined;
  }
}

/**
 * Vitest globalSetup. A fresh PGlite cluster runs initdb (seconds of WASM work, 10 s and more on a busy
 * 2-core machine) and then every migration; a test file that starts from this snapshot instead loads
 * a finished cluster (about a fifth of the time). The snapshot is kept under the system's temp directory,
 * named by a hash of the migrations and the PGlite version, so a run after a new migration (or a PGlite
 * upgrade) makes a new one and other runs reuse it; it is written to a temp name and renamed into place,
 * so two runs making it at once never see half of one. The helpers still run migrate(), which finds
 * nothing to do and checks every checksum. Not made on the PostgreSQL pass, whose tests create
 * PostgreSQL databases.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (process.env.TEST_DATABASE === 'postgres') {
    project.provide('pgliteSnapshot', undefined);
    return;
  }
  const migrations = await loadMigrations();
  const pglitePackage = path.join(projectRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const pgliteVersion = (JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string }).version;
  const hash = createHash('sha256')
    .update(JSON.stringify([pgliteVersion, migrations.map((m) => [m.version, m.checksum])]))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(os.tmpdir(), `pps-pglite-snapshot-${hash}`);
  const snapshot = { dump: path.join(dir, 'migrated.tar'), dataDir: path.join(dir, 'pglite') };
  if (!existsSync(snapshot.dump)) await make(dir);
  project.provide('pgliteSnapshot', snapshot);
}

async function make(dir: string): Promise<void> {
  const building = await mkdtemp(`${dir}.building-`);
  try {
    const dataDir = path.join(building, 'pglite');
    const db = await openDatabase({ dataDir });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // The closed directory, opened once more to dump it (the service's Database does not expose PGlite).
    const pglite = await PGlite.create(dataDir);
    try {
      await writeFile(path.join(building, 'migrated.tar'), Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    } finally {
      await pglite.close();
    }
    await rename(building, dir).catch((err: NodeJS.ErrnoException) => {
      // Another run made it first: theirs is the same.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}
