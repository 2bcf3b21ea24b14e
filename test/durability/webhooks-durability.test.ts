import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { type ServerProcesses, serverProcesses } from '../helpers/processes.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function post(url: string, key: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: headers(key), body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * The transactional outbox across a crash: the server is SIGKILLed while writes are being acknowledged
 * and none of their events has been delivered yet (the receiver holds every request), then restarted:
 * every acknowledged write's event arrives, signed. The embedded database under a temp DATA_DIR, or
 * (TEST_DATABASE=postgres) a fresh PostgreSQL database.
 */
describe(`webhook outbox across SIGKILL on ${TEST_DATABASE}`, () => {
  let servers: ServerProcesses;
  let receiver: Receiver;
  const start = () => servers.start({ ready: true });

  beforeAll(async () => {
    receiver = await startReceiver();
    servers = await serverProcesses('pps-webhook-durable-', {
      ADMIN_TOKEN,
      ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
  }, 120_000);

  afterAll(async () => {
    await servers?.close();
    await receiver?.close();
  });

  it('every committed event is delivered after a SIGKILL and a restart', async () => {
    // Until the kill, the receiver answers nothing in time: no event can have been delivered.
    let holding = true;
    receiver.answer = () => (holding ? { status: 200, delayMs: 30_000 } : { status: 200 });

    const first = await start();
    const org = await post(`${first.url}/api/v1/admin/organizations`, ADMIN_TOKEN, { name: 'Durable hooks' });
    const key = org.body.apiKey as string;
    const hook = await post(`${first.url}/api/v1/webhooks`, key, { url: `${receiver.url}/durable`, events: ['apartment.created', 'inquiry.created'] });
    expect(hook.status).toBe(201);
    const estate = await post(`${first.url}/api/v1/estate`, key, { name: 'Durable estate' });
    const building = await post(`${first.url}/api/v1/building`, key, { name: 'Durable building', estateId: estate.body.id });

    const acknowledged: string[] = [];
    let killed = false;
    let n = 0;
    const writer = async () => {
      while (!killed) {
        const i = ++n;
        try {
          const res =
            i % 3 === 0
              ? await post(`${first.url}/api/v1/estates/${estate.body.id}/inquiries`, '', { name: `Lead ${i}`, email: `lead${i}@example.com` })
              : await post(`${first.url}/api/v1/apartment`, key, { name: `Unit ${i}`, buildingId: building.body.id });
          if (res.status === 201) acknowledged.push(res.body.id as string);
        } catch {
          return; // the connection died with the process
        }
        if (acknowledged.length >= 40 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all([writer(), writer(), writer()]);
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(receiver.received.filter((r) => r.answered)).toEqual([]);
    const killedAt = Date.now();

    holding = false;
    const second = await start();
    const restartedAt = Date.now();
    const delivered = () => {
      const ids = new Set<string>();
      for (const r of receiver.received) {
        if (r.answered && r.path === '/durable') {
          const body = new Webhook(hook.body.secret as string).verify(r.body, r.headers) as { data: { id: string } };
          ids.add(body.data.id);
        }
      }
      return ids;
    };
    // Attempts the killed process had leased are taken again once their lease ends (PostgreSQL) or at once (PGlite).
    await receiver.waitFor(() => acknowledged.every((id) => delivered().has(id)), 90_000);
    expect(acknowledged.filter((id) => !delivered().has(id))).toEqual([]);

    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 300_000);
});
