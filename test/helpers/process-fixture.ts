import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { ADMIN_TOKEN } from './app.js';
import { TEST_DATABASE, createTestDatabaseUrl } from './database.js';
import { type ServerChild, childEnv, testDataDir } from './processes.js';

/**
 * Server processes of one describe block, each on a fresh DATA_DIR and (on the PostgreSQL pass) all on one
 * database of the block: registers the block's beforeAll/afterAll, so call it inside `describe`.
 */
export function processFixture(prefix: string) {
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const cleanups: Array<() => Promise<unknown> | unknown> = [];

  beforeAll(async () => {
    if (TEST_DATABASE === 'postgres') {
      const created = await createTestDatabaseUrl();
      databaseUrl = created.url;
      dropDatabase = created.drop;
    }
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    await dropDatabase?.();
  });

  return {
    /** Run at the end of the block, last registered first. */
    onCleanup: (cleanup: () => Promise<unknown> | unknown) => cleanups.push(cleanup),
    /**
     * A child environment on a new DATA_DIR. On PGlite a copy of the run's migrated cluster: initdb under
     * a busy machine took most of the 120 s these starts are given.
     */
    async freshEnv(extra: Record<string, string> = {}) {
      const dataDir = await testDataDir(prefix);
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      return childEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ADMIN_TOKEN, LOG_LEVEL: 'info', ...extra });
    },
    /** SIGKILLs the server at the end of the block if it still runs. */
    stopOnCleanup(server: ServerChild) {
      cleanups.push(async () => {
        if (server.child.exitCode === null && server.child.signalCode === null) {
          server.child.kill('SIGKILL');
          await server.exited;
        }
      });
    },
  };
}

/** A JSON request to a server process: status and body text. */
export async function callJson(url: string, init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.key ? { authorization: `Bearer ${init.key}`, 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.text()) as string };
}
