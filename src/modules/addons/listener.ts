import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Queryable } from '../../db/client.js';
import type { PublicDocumentCache } from './public-read.js';
import { ADDON_CHANNEL } from './state.js';

const RETRY_MS = 1_000;
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_PREFIX = 'probe:';

/**
 * Keeps one LISTEN connection per instance so add-on writes made by other instances invalidate
 * this instance's public documents. While the connection is down the cache falls back to verify
 * mode (a version lookup per read), so a lost notification can never serve stale content.
 *
 * `databaseUrl` must be a session connection (DATABASE_DIRECT_URL): through a PgBouncer in transaction
 * pooling mode LISTEN "succeeds" but notifications never arrive. So the cache is trusted only after a
 * probe sent through the service's own pool (`db`, where writes notify) has arrived on this connection.
 */
export function listenForAddonChanges(databaseUrl: string, cache: PublicDocumentCache, log: FastifyBaseLogger, db: Queryable): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const lost = () => {
    cache.setTrusted(false);
    const old = client;
    client = undefined;
    old?.end().catch(() => undefined);
    if (!closed && !timer) {
      timer = setTimeout(() => {
        timer = undefined;
        void connect();
      }, RETRY_MS);
      timer.unref();
    }
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    client = c;
    c.on('error', lost);
    c.on('end', () => client === c && lost());
    const probe = `${PROBE_PREFIX}${randomUUID()}`;
    let probeArrived: () => void = () => undefined;
    const arrived = new Promise<boolean>((resolve) => {
      probeArrived = () => resolve(true);
      setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref();
    });
    c.on('notification', (msg) => {
      if (msg.channel !== ADDON_CHANNEL || !msg.payload) return;
      if (msg.payload.startsWith(PROBE_PREFIX)) {
        if (msg.payload === probe) probeArrived();
      } else cache.invalidate(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${ADDON_CHANNEL}`);
      await db.query('SELECT pg_notify($1, $2)', [ADDON_CHANNEL, probe]);
      const ok = await arrived;
      if (closed) return void (await c.end());
      if (client !== c) return;
      if (ok) cache.setTrusted(true);
      else {
        log.warn(
          'add-on change notifications do not arrive on the LISTEN connection (DATABASE_URL through a transaction-pooling PgBouncer? set DATABASE_DIRECT_URL); public reads verify versions',
        );
      }
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'add-on change listener unavailable; public reads verify versions');
      if (client === c) lost();
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      cache.setTrusted(false);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
