import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { KEYED_CREATES, markedIds, seedCreates, sendKeyed, servePng } from '../helpers/keyed-creates.js';
import { type ServerProcesses, serverProcesses } from '../helpers/processes.js';

/**
 * The server as a real process, SIGKILLed while every creating route has a keyed create committed and
 * its answer held by a test fault point (before a byte of it left): each client sees its connection die. The retry
 * against the restarted server must replay the original answer; the database must hold one record.
 */
describe(`a kill between commit and answer, on ${TEST_DATABASE}`, () => {
  let servers: ServerProcesses;
  let png: Awaited<ReturnType<typeof servePng>>;
  const start = () => servers.start({ ready: true });

  beforeAll(async () => {
    png = await servePng();
    servers = await serverProcesses('pps-idem-crash-', {
      ADMIN_TOKEN,
      NODE_ENV: 'test',
      TEST_FAULTS: 'true',
      ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'info',
    });
  }, 120_000);

  afterAll(async () => {
    await servers?.close();
    await png?.close();
  });

  it('every creating route: the retry replays the original status and id, and one record exists', async () => {
    const first = await start();
    const seed = await seedCreates(first.url, ADMIN_TOKEN, png.url);
    const markers = KEYED_CREATES.map((_, i) => `crash-${String(i).padStart(3, '0')}`);
    const requests = KEYED_CREATES.map((create, i) => create.request(seed, markers[i]!));
    // Every create commits, then its answer is held; the kill lands with all of them committed and unsent.
    const cut = requests.map((request, i) =>
      sendKeyed(first.url, request, markers[i]!, 'hold-after-commit').then(
        (res) => `answered ${res.status}`,
        () => 'connection lost',
      ),
    );
    const held = () => first.output().split('test fault: answer held after commit').length - 1;
    for (let waited = 0; held() < KEYED_CREATES.length; waited += 100) {
      if (waited > 60_000) throw new Error(`only ${held()} answers held:\n${first.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await Promise.all(cut)).toEqual(KEYED_CREATES.map(() => 'connection lost'));

    const server = await start();
    const replayed: Array<string | undefined> = [];
    for (const [i, create] of KEYED_CREATES.entries()) {
      const retry = await sendKeyed(server.url, requests[i]!, markers[i]!);
      const body = (await retry.json()) as Record<string, unknown>;
      expect(retry.status, `${create.route}: ${JSON.stringify(body)}`).toBe(201);
      expect(retry.headers.get('idempotent-replayed'), create.route).toBe('true');
      replayed.push(create.idOf(body));
    }
    server.child.kill('SIGTERM');
    await server.exited;

    const db: Database = await openDatabase(servers.databaseUrl ? { databaseUrl: servers.databaseUrl } : { dataDir: path.join(servers.dataDir, 'pglite') });
    try {
      for (const [i, create] of KEYED_CREATES.entries()) {
        const ids = await markedIds(db, create, markers[i]!);
        const id = replayed[i];
        expect(ids.length, create.route).toBe(create.rows);
        // The replayed id is the one record the cut request made.
        if (id !== undefined) expect(ids, create.route).toEqual([id]);
      }
    } finally {
      await db.close();
    }
  }, 600_000);
});
