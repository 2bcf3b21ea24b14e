import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { PublicDocumentCache } from './public-read.js';
import { ADDON_CHANNEL } from './state.js';

const RETRY_MS = 1_000;

/**
 * Keeps one LISTEN connection per instance so add-on writes made by other instances invalidate
 * this instance's public documents. While the connection is down the cache falls back to verify
 * mode (a version lookup per read), so a lost notification can never serve stale content.
 */
export function listenForAddonChanges(databaseUrl: string, cache: PublicDocumentCache, log: FastifyBaseLogger): { close(): Promise<void> } {
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
    c.on('notification', (msg) => {
      if (msg.channel === ADDON_CHANNEL && msg.payload) cache.invalidate(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${ADDON_CHANNEL}`);
      if (closed) return void (await c.end());
      cache.setTrusted(true);
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
