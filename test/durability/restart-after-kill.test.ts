import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { callJson as call, processFixture } from '../helpers/process-fixture.js';
import { ROOT, type ServerChild, finished, freePort, startServerChild, waitReady } from '../helpers/processes.js';

/**
 * The server as a real process (issue 9, findings 6 and 7): what an operator's log holds at trace level,
 * and a restart right after `kill -9` while the old process is not yet reaped. Runs on the embedded
 * database, or with TEST_DATABASE=postgres on a fresh PostgreSQL database (files stay on disk, so the
 * server takes the DATA_DIR lock on both engines).
 */
describe(`server process on ${TEST_DATABASE}: restart after kill -9`, () => {
  const { freshEnv, stopOnCleanup, onCleanup } = processFixture('pps-proc-');

  it('starts right after kill -9 while the killed process is not yet reaped, with every acknowledged write', async () => {
    const env = await freshEnv();
    const port = await freePort();
    // sh starts the server in the background and replaces itself with sleep, which never reaps its
    // child: after kill -9 the old server stays a zombie, as under a supervisor that has not waited yet.
    const holder: ChildProcess = spawn(
      'sh',
      ['-c', `"${process.execPath}" --import tsx "${path.join(ROOT, 'src/server.ts')}" >/dev/null 2>&1 & exec sleep 600`],
      { cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' },
    );
    const holderDone = finished(holder);
    onCleanup(async () => {
      holder.kill('SIGKILL');
      await holderDone;
    });
    const old = { url: `http://127.0.0.1:${port}`, output: () => '', exited: holderDone } as unknown as ServerChild;
    await waitReady(old);
    const org = await call(`${old.url}/api/v1/admin/organizations`, { key: ADMIN_TOKEN, body: { name: 'Before the kill' } });
    expect(org.status).toBe(201);
    const key = JSON.parse(org.body).apiKey as string;
    const estate = await call(`${old.url}/api/v1/estate`, { key, body: { name: 'Acknowledged' } });
    expect(estate.status).toBe(201);

    const oldPid = (JSON.parse(readFileSync(path.join(env.DATA_DIR!, '.lock'), 'utf8')) as { pid: number }).pid;
    process.kill(oldPid, 'SIGKILL');
    const restarted = startServerChild(env, await freePort());
    stopOnCleanup(restarted);
    await waitReady(restarted);
    const read = await call(`${restarted.url}/api/v1/estate/${JSON.parse(estate.body).id}`, { key });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body)).toMatchObject({ name: 'Acknowledged' });
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);
  }, 300_000);
});
