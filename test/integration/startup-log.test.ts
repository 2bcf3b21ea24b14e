import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/db/data-dir-lock.js';
import { loadMigrations } from '../../src/db/migrate.js';
import { createOrganizationCommand } from '../../src/startup-log.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { POSTGRES_ADMIN_URL, TEST_DATABASE, createTestDatabaseUrl } from '../helpers/database.js';
import { type ServerChild, childEnv, freePort, startServerChild, testDataDir, waitReady } from '../helpers/processes.js';

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The JSON log lines a server wrote so far (pino, one object a line). */
const lines = (server: ServerChild): Line[] =>
  server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

const INFO = 30;
const WARN = 40;

/**
 * What a start says before its first request (issue 28), read from a real server process: the
 * database without credentials, the storage, the migrations applied and "ready" with the URL and,
 * while no organization exists, the command that creates one. On the engine this run targets.
 */
describe(`start-up log on ${TEST_DATABASE}`, () => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabaseUrl>> | undefined;
  let env: NodeJS.ProcessEnv;
  const started: ServerChild[] = [];
  const start = async (extra: Record<string, string> = {}) => {
    const server = startServerChild({ ...env, ...extra }, await freePort());
    started.push(server);
    await waitReady(server);
    await server.waitForOutput(/"msg":"ready: /);
    return server;
  };
  const stop = async (server: ServerChild) => {
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  };

  beforeAll(async () => {
    // A first start: nothing migrated yet.
    dataDir = await testDataDir('pps-startup-log-', { empty: true });
    database = TEST_DATABASE === 'postgres' ? await createTestDatabaseUrl() : undefined;
    env = childEnv({ DATA_DIR: dataDir, DATABASE_URL: database?.url, DATABASE_DIRECT_URL: database?.directUrl, ADMIN_TOKEN, LOG_LEVEL: 'info' });
  }, 120_000);

  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(started.map((s) => s.exited));
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says the engine, the storage, the migrations applied and ready with the command that creates an organization', async () => {
    const total = (await loadMigrations()).length;
    const server = await start();
    const log = lines(server);
    const index = (pattern: RegExp) => log.findIndex((l) => pattern.test(l.msg));

    const engine = log[index(/^database: /)]!;
    expect(engine.level).toBe(INFO);
    if (TEST_DATABASE === 'postgres') {
      const target = new URL(database!.url);
      expect(engine.msg).toBe(`database: PostgreSQL at ${target.hostname}:${target.port || '5432'}${target.pathname}`);
      // The URL's user (and any password) is not in any line.
      expect(server.output()).not.toContain(`${new URL(POSTGRES_ADMIN_URL).username}@`);
    } else {
      expect(engine.msg).toBe(`database: embedded PGlite at ${path.join(dataDir, 'pglite')}`);
    }
    const storage = log[index(/^storage: /)]!;
    expect(storage).toMatchObject({ level: INFO, msg: `storage: files on disk at ${path.join(dataDir, 'files')}`, storage: 'disk' });
    const migrations = log[index(/^migrations: /)]!;
    expect(migrations).toMatchObject({ level: INFO, applied: total, total });
    expect(migrations.msg).toMatch(new RegExp(`^migrations: applied ${total} of ${total} in \\d+ ms$`));
    const ready = log[index(/^ready: /)]!;
    expect(ready).toMatchObject({ level: INFO, url: server.url });
    const command = createOrganizationCommand(server.url);
    expect(ready.msg.endsWith(`create one from a shell where ADMIN_TOKEN holds the token this server was started with: ${command}`)).toBe(true);
    // In the order they happen, the database first and "ready" last; the operator token never appears.
    expect(index(/^database: /)).toBeLessThan(index(/^migrations: /));
    expect(index(/^migrations: /)).toBeLessThan(index(/^ready: /));
    expect(server.output()).not.toContain(ADMIN_TOKEN);

    // The command works as printed, pasted into a shell where ADMIN_TOKEN is the server's (README, Quick
    // start); the next start finds the schema current and an organization.
    const pasted = spawnSync('bash', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], { env: { ...process.env, ADMIN_TOKEN }, encoding: 'utf8' });
    expect(pasted.stdout).toBe('201');
    await stop(server);

    const again = await start();
    const second = lines(again);
    expect(second.find((l) => l.msg.startsWith('migrations: '))).toMatchObject({ applied: 0, total });
    const readyAgain = second.find((l) => l.msg.startsWith('ready: '))!;
    expect(readyAgain.msg).toBe(`ready: ${again.url} (API reference at ${again.url}/docs)`);
    await stop(again);
  }, 240_000);

  it('without ADMIN_TOKEN, ready points to the CLI instead', async () => {
    // A database of its own with no organization: the shared one has one by now.
    const own = await testDataDir('pps-startup-log-no-admin-');
    const ownDatabase = TEST_DATABASE === 'postgres' ? await createTestDatabaseUrl() : undefined;
    try {
      const server = await start({
        DATA_DIR: own,
        ADMIN_TOKEN: '',
        ...(ownDatabase ? { DATABASE_URL: ownDatabase.url, DATABASE_DIRECT_URL: ownDatabase.directUrl } : {}),
      });
      const ready = lines(server).find((l) => l.msg.startsWith('ready: '))!;
      expect(ready.msg).toContain('ADMIN_TOKEN is unset');
      expect(ready.msg).toContain('npm run --silent cli -- create-org --name "My Company"');
      await stop(server);
    } finally {
      await ownDatabase?.drop();
      await rm(own, { recursive: true, force: true });
    }
  }, 240_000);

  it('a start on a DATA_DIR another process holds says at once that it waits, then refuses', async () => {
    const own = await testDataDir('pps-startup-log-locked-', { empty: true });
    const lock = lockDataDir(own, 'server');
    try {
      const server = startServerChild({ ...env, DATA_DIR: own, DATABASE_URL: '', DATABASE_DIRECT_URL: '' }, await freePort());
      started.push(server);
      await server.waitForOutput(/waiting up to 5 s/);
      // Announced while the wait lasts, not after it.
      expect(server.child.exitCode).toBe(null);
      const waiting = lines(server).find((l) => l.msg.includes('waiting up to 5 s'))!;
      expect(waiting).toMatchObject({ level: WARN, holder: `pid ${process.pid}, server` });
      const end = await server.exited;
      expect(end.code).toBe(1);
      expect(end.stderr).toMatch(/is in use by another process/);
    } finally {
      lock.release();
      await rm(own, { recursive: true, force: true });
    }
  }, 120_000);
});
