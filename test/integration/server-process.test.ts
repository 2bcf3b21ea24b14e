import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { callJson as call, processFixture } from '../helpers/process-fixture.js';
import { freePort, startServerChild, waitReady } from '../helpers/processes.js';
import { multipart, png } from './assets-fixtures.js';

/**
 * The server as a real process (issue 9, findings 6 and 7): what an operator's log holds at trace level,
 * (the restart right after `kill -9` is in test/durability/restart-after-kill.test.ts). Runs on the embedded
 * database, or with TEST_DATABASE=postgres on a fresh PostgreSQL database (files stay on disk, so the
 * server takes the DATA_DIR lock on both engines).
 */
describe(`server process on ${TEST_DATABASE}: logs and restarts`, () => {
  const { freshEnv, stopOnCleanup, onCleanup } = processFixture('pps-proc-');

  it('keeps API keys and the operator token out of a trace-level log of a full run, uploads included', async () => {
    const origin = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png()));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise((resolve) => origin.close(resolve)));
    const env = await freshEnv({ LOG_LEVEL: 'trace', ALLOW_PRIVATE_URLS: 'true' });
    const server = startServerChild(env, await freePort());
    stopOnCleanup(server);
    await waitReady(server);
    const base = server.url;

    const org = await call(`${base}/api/v1/admin/organizations`, { key: ADMIN_TOKEN, body: { name: 'Logged' } });
    expect(org.status).toBe(201);
    const key = JSON.parse(org.body).apiKey as string;
    const orgId = JSON.parse(org.body).organization.id as string;
    const second = await call(`${base}/api/v1/admin/organizations/${orgId}/api-keys`, { key: ADMIN_TOKEN, body: { scopes: ['read'] } });
    const readKey = JSON.parse(second.body).apiKey as string;
    expect(await call(`${base}/api/v1/admin/organizations`, { key: ADMIN_TOKEN })).toMatchObject({ status: 200 });

    const { body, headers: mp } = multipart({ filename: 'facade.png', type: 'image/png', data: png() }, { name: 'Facade' });
    const upload = await fetch(`${base}/api/v1/asset/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'upload-1', ...mp },
      body: new Uint8Array(body),
    });
    expect(upload.status).toBe(201);
    const refused = await fetch(`${base}/api/v1/asset/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(refused.status).toBe(400);
    const port = (origin.address() as AddressInfo).port;
    expect((await call(`${base}/api/v1/asset`, { key, body: { src: `http://127.0.0.1:${port}/logo.png` } })).status).toBe(201);
    const estate = await call(`${base}/api/v1/estate`, {
      key,
      body: { name: 'Logged Estate' },
      headers: { 'idempotency-key': 'e-1', cookie: `session=${key}` },
    });
    expect(estate.status).toBe(201);
    expect((await call(`${base}/api/v1/estate`, { key, body: { name: 'Logged Estate' }, headers: { 'idempotency-key': 'e-1' } })).status).toBe(201);
    expect((await call(`${base}/api/v1/estate`, { key: readKey })).status).toBe(200);
    expect((await call(`${base}/api/v1/estate`, { key: readKey, body: { name: 'Nope' } })).status).toBe(403);
    expect((await call(`${base}/api/v1/estate`, { key: `${key}x` })).status).toBe(401);
    expect((await call(`${base}/api/v1/estate?apiKey=${key}`, { key })).status).toBe(400);
    expect((await call(`${base}/api/v1/admin/organizations`, { key })).status).toBe(403);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const log = server.output();
    // The run was logged at trace level, the upload's busboy options (which carry the headers) included.
    expect(log).toMatch(/Providing options to busboy/);
    expect(log).toMatch(/\[redacted\]/);
    for (const [what, secret] of [
      ['API key', key],
      ['read-only key', readKey],
      ['operator token', ADMIN_TOKEN],
      ['secret part of the key', key.slice(-20)],
    ] as const) {
      expect(log.includes(secret), `${what} found in the trace log`).toBe(false);
    }
  }, 300_000);
});
