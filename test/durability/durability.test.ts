import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { type ServerChild, type ServerProcesses, childEnv, freePort, serverProcesses, startServerChild, waitReady } from '../helpers/processes.js';

const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function post(url: string, key: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: json(key), body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** An organization, an estate and a building on a running server; returns the key and building id. */
async function seed(server: ServerChild): Promise<{ key: string; buildingId: string }> {
  const org = await post(`${server.url}/api/v1/admin/organizations`, ADMIN_TOKEN, { name: 'Durable' });
  expect(org.status).toBe(201);
  const key = org.body.apiKey as string;
  const estate = await post(`${server.url}/api/v1/estate`, key, { name: 'Durable Estate' });
  const building = await post(`${server.url}/api/v1/building`, key, { name: 'Durable Building', estateId: estate.body.id });
  expect(building.status).toBe(201);
  return { key, buildingId: building.body.id as string };
}

/**
 * The server as a real process, killed and restarted. Runs on the embedded database under a temp
 * DATA_DIR, or (TEST_DATABASE=postgres) on a fresh PostgreSQL database.
 */
/** Every file under a folder, recursively (partial writes included). */
/** The stored files under `dir`; the storage's ownership stamp (`.pps-storage.json`, issue 25) is not one. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name !== '.pps-storage.json').map((e) => path.join(e.parentPath ?? e.path, e.name));
}

describe(`server process on ${TEST_DATABASE}`, () => {
  let servers: ServerProcesses;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const start = () => servers.start();
  const track = (server: ServerChild) => servers.track(server);

  beforeAll(async () => {
    servers = await serverProcesses('pps-durable-', { ADMIN_TOKEN, LOG_LEVEL: 'info' });
    ({ dataDir, env } = servers);
  }, 120_000);

  afterAll(async () => servers?.close());

  it('SIGKILL during a stream of writes loses no acknowledged write', async () => {
    const first = await start();
    await waitReady(first);
    const { key, buildingId } = await seed(first);

    // Four writers stream creates; every 201 is an acknowledged write whose id must survive.
    const acknowledged: string[] = [];
    let killed = false;
    let n = 0;
    const writer = async () => {
      while (!killed && n < 5_000) {
        const name = `Unit ${++n}`;
        try {
          const res = await post(`${first.url}/api/v1/apartment`, key, { name, buildingId });
          if (res.status === 201) acknowledged.push(res.body.id as string);
        } catch {
          return; // the connection died with the process
        }
        if (acknowledged.length >= 60 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    // A 5,000-apartment bulk call runs alongside into a building of its own; the kill may land before,
    // during or after its transaction, and whichever it is the building must hold all 5,000 or none.
    const bulkEstate = await post(`${first.url}/api/v1/estate`, key, { name: 'Bulk Estate' });
    const bulkBuilding = (await post(`${first.url}/api/v1/building`, key, { name: 'Bulk Building', estateId: bulkEstate.body.id })).body.id as string;
    const apartments = Array.from({ length: 5000 }, (_, i) => ({ name: `Bulk ${i}`, apartmentData: { area: 50, rooms: 2 } }));
    const bulk = post(`${first.url}/api/v1/apartment/bulk`, key, { buildingId: bulkBuilding, apartments }).then(
      (r) => r.status,
      () => 'connection lost',
    );
    await Promise.all([writer(), writer(), writer(), writer()]);
    const bulkOutcome = await bulk;
    const end = await first.exited;
    expect(end.signal).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    // The lock the killed process left behind is taken over; the restarted server has every write.
    const second = await start();
    await waitReady(second);
    const missing: string[] = [];
    for (const id of acknowledged) {
      const res = await fetch(`${second.url}/api/v1/apartment/${id}`, { headers: json(key) });
      if (res.status !== 200) missing.push(`${id}: ${res.status}`);
    }
    expect(missing).toEqual([]);
    const list = (await (await fetch(`${second.url}/api/v1/apartment?buildingId=${buildingId}`, { headers: json(key) })).json()) as { count: number };
    expect(list.count).toBeGreaterThanOrEqual(acknowledged.length);
    const bulkCount = (
      (await (await fetch(`${second.url}/api/v1/apartment?buildingId=${bulkBuilding}&limit=1`, { headers: json(key) })).json()) as { count: number }
    ).count;
    expect([0, 5000]).toContain(bulkCount);
    if (bulkOutcome === 201) expect(bulkCount).toBe(5000);
    // It takes writes again.
    expect((await post(`${second.url}/api/v1/apartment`, key, { name: 'After restart', buildingId })).status).toBe(201);

    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 300_000);

  it('SIGKILL during an upload leaves no asset and no file after restart', async () => {
    const first = await start();
    await waitReady(first);
    const { key } = await seed(first);
    const filesDir = path.join(dataDir, 'files');
    const size = 8 * 1024 * 1024;
    const boundary = 'killboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const req = http.request(`${first.url}/api/v1/asset/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + boundary.length + 8,
      },
    });
    req.on('error', () => undefined); // the server dies under it
    req.write(head);
    req.write(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 - png.length, 1)]));
    // Kill only once the server is writing the file: a partial write exists on disk.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (await listFiles(filesDir)).length === 0) await new Promise((r) => setTimeout(r, 50));
    expect((await listFiles(filesDir)).length).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    req.destroy();

    const second = await start();
    await waitReady(second);
    const assets = (await (await fetch(`${second.url}/api/v1/asset`, { headers: json(key) })).json()) as unknown[];
    expect(assets).toEqual([]);
    expect(await listFiles(filesDir)).toEqual([]);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 300_000);

  it('SIGTERM finishes the request in flight, then exits 0', async () => {
    const server = await start();
    await waitReady(server);
    const { key, buildingId } = await seed(server);

    // The request's headers go out first; its body only after SIGTERM, so it is certainly in flight.
    const body = JSON.stringify({ name: 'In flight', buildingId });
    const requestId = `inflight-${Date.now()}`;
    const pending = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/v1/apartment`, {
        method: 'POST',
        headers: { ...json(key), 'content-length': Buffer.byteLength(body), 'x-request-id': requestId },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      server.waitForOutput(new RegExp(`"reqId":"${requestId}"[^\\n]*incoming request`)).then(() => {
        server.child.kill('SIGTERM');
        return server.waitForOutput(/shutting down/).then(() => req.end(body.slice(10)));
      }, reject);
    });
    const answer = await pending;
    expect(answer.status, answer.text).toBe(201);
    expect(JSON.parse(answer.text)).toMatchObject({ name: 'In flight', buildingId });
    const end = await server.exited;
    expect(end.code, end.stderr).toBe(0);
  }, 300_000);

  it('refuses to start on invalid configuration, naming the variable; a busy port exits non-zero and frees DATA_DIR', async () => {
    const badConfig = startServerChild({ ...env, STORAGE_DRIVER: 'floppy' }, await freePort());
    track(badConfig);
    const bad = await badConfig.exited;
    expect(bad.code).toBe(1);
    expect(badConfig.output()).toMatch(/STORAGE_DRIVER must be/);

    const ownDir = await mkdtemp(path.join(os.tmpdir(), 'pps-busy-'));
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)));
    try {
      const busy = startServerChild(childEnv({ DATA_DIR: ownDir, LOG_LEVEL: 'info' }), port);
      track(busy);
      const end = await busy.exited;
      expect(end.code).toBe(1);
      expect(busy.output()).toMatch(/EADDRINUSE/);
      expect(existsSync(path.join(ownDir, '.lock'))).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await rm(ownDir, { recursive: true, force: true });
    }
  }, 300_000);

  // DATA_DIR guards the embedded database: a second server on it must refuse. On PostgreSQL runs the
  // servers share nothing on disk, so this case is exercised on the embedded database in both runs.
  it('a second server on the same DATA_DIR is refused with a clear message; the first keeps serving', async () => {
    const own = childEnv({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'pps-lock-')), ADMIN_TOKEN, LOG_LEVEL: 'info' });
    const first = startServerChild(own, await freePort());
    track(first);
    await waitReady(first);
    const second = startServerChild(own, await freePort());
    track(second);
    const end = await second.exited;
    expect(end.code).not.toBe(0);
    expect(end.code).not.toBeNull();
    expect(second.output()).toMatch(/data directory .* is in use by another process \(pid \d+, server\)/);
    const { key, buildingId } = await seed(first);
    expect((await post(`${first.url}/api/v1/apartment`, key, { name: 'Still here', buildingId })).status).toBe(201);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    await rm(own.DATA_DIR!, { recursive: true, force: true });
  }, 300_000);
});
