/**
 * Keyed creates cut by SIGKILL, measured from outside: does a retry with the same Idempotency-Key ever
 * run an operation twice?
 *
 *   npx tsx bench/idempotency-kills.ts [pglite|postgres] [rounds=10]
 *
 * Each round sends 30 keyed creates at once (every creating route twice) to a real server process and
 * SIGKILLs it after a random number of them were answered, so creates are cut before, during and after
 * their commit; in
 * odd rounds a third of them also ask the test fault point to hold their answer after the commit
 * (TEST_FAULTS=true), so some are surely committed but unanswered at the kill. The server is
 * restarted and every create without a 201 is retried with its key until it gets one. At the end each
 * create's records are counted in the database by the marker it carried: a duplicate is a record more
 * than the create makes; a loss is an answered 201 without its record. postgres uses BENCH_POSTGRES_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres) to make and drop a database of its own.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db/client.js';
import { KEYED_CREATES, type KeyedCreate, type KeyedRequest, markedIds, seedCreates, sendKeyed, servePng } from '../test/helpers/keyed-creates.js';
import { spawnServer, stop } from './lib.js';

const engine = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const rounds = Number(process.argv[3] ?? 10);
const ADMIN = 'bench-admin-token-0123456789';

interface Create {
  create: KeyedCreate;
  marker: string;
  request: KeyedRequest;
  /** The id the first 201 named (fresh or replayed), and every later answer must name the same. */
  id: string | undefined;
  answered: boolean;
  idMismatch: boolean;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-idem-kills-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async (): Promise<void> => undefined;
  if (engine === 'postgres') {
    const admin = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `pps_bench_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const png = await servePng();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ADMIN_TOKEN: ADMIN,
    NODE_ENV: 'test',
    TEST_FAULTS: 'true',
    ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_KEY_MAX: '1000000',
    RATE_LIMIT_ANONYMOUS_MAX: '1000000',
    RATE_LIMIT_INQUIRY_MAX: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const start = () => spawnServer(['--import', 'tsx', 'src/server.ts'], env);
  let server: { child: ChildProcess; base: string } = await start();
  // A failure must not leave the server running.
  process.on('exit', () => server.child.kill('SIGKILL'));
  const seed = await seedCreates(server.base, ADMIN, png.url);
  const all: Create[] = [];
  let kills = 0;
  let cut = 0;
  let retries = 0;
  const unresolved: string[] = [];

  const settle = async (c: Create, res: Response) => {
    if (res.status !== 201) return false;
    const id = c.create.idOf((await res.json()) as Record<string, unknown>);
    if (c.id !== undefined && id !== c.id) c.idMismatch = true;
    c.id ??= id;
    c.answered = true;
    return true;
  };

  for (let round = 0; round < rounds; round++) {
    const batch: Create[] = [...KEYED_CREATES, ...KEYED_CREATES].map((create, i) => {
      const marker = `kill-${String(round).padStart(3, '0')}-${String(i).padStart(3, '0')}`;
      return { create, marker, request: create.request(seed, marker), id: undefined, answered: false, idMismatch: false };
    });
    all.push(...batch);
    const hold = round % 2 === 1;
    // The kill lands after a random number of answers (1–18 of 30) and a random 0–50 ms more, so it
    // cuts the batch anywhere from its start to its end; a timer bounds the wait.
    const killAfter = 1 + Math.floor(Math.random() * 18);
    let answers = 0;
    let trigger!: () => void;
    const due = new Promise<void>((r) => {
      trigger = r;
    });
    const timer = setTimeout(trigger, 10_000);
    const sent = batch.map((c, i) =>
      sendKeyed(server.base, c.request, c.marker, hold && i % 3 === 0 ? 'hold-after-commit' : undefined)
        .then(
          (res) => settle(c, res),
          () => {
            cut++;
            return false;
          },
        )
        .finally(() => {
          if (++answers >= killAfter) trigger();
        }),
    );
    await due;
    clearTimeout(timer);
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 50)));
    server.child.kill('SIGKILL');
    kills++;
    await new Promise((r) => server.child.once('exit', r));
    await Promise.all(sent);

    server = await start();
    for (const c of batch) {
      // A 409 "still being processed" or a 5xx is worth retrying; a few in a row, or any other answer,
      // means the client never learns what its create did (e.g. a 409 "duplicate name" of its own record).
      for (let attempt = 0; !c.answered; attempt++) {
        retries++;
        const res = await sendKeyed(server.base, c.request, c.marker);
        if (await settle(c, res)) break;
        if (attempt >= 4 || (res.status !== 409 && res.status < 500)) {
          unresolved.push(`${c.create.route} ${c.marker}: ${res.status} ${await res.text()}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
  await stop(server.child);

  const db: Database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: path.join(dataDir, 'pglite') });
  let duplicates = 0;
  let lost = 0;
  let wrongId = 0;
  const perRoute = new Map<string, number>();
  try {
    for (const c of all) {
      const ids = await markedIds(db, c.create, c.marker);
      if (ids.length > c.create.rows) {
        duplicates += ids.length - c.create.rows;
        perRoute.set(c.create.route, (perRoute.get(c.create.route) ?? 0) + ids.length - c.create.rows);
      }
      if (ids.length < c.create.rows) lost++;
      if (c.idMismatch || (c.id !== undefined && !ids.includes(c.id))) wrongId++;
    }
  } finally {
    await db.close();
    await png.close();
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(
    JSON.stringify(
      {
        engine,
        creates: all.length,
        routes: KEYED_CREATES.length,
        kills,
        cutConnections: cut,
        retries,
        duplicates,
        lost,
        wrongId,
        unresolved,
        duplicatesByRoute: Object.fromEntries(perRoute),
      },
      null,
      2,
    ),
  );
  if (duplicates || lost || wrongId || unresolved.length) process.exitCode = 1;
}

await main();
