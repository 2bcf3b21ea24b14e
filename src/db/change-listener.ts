import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { FailureStreak } from '../failure-streak.js';
import type { Queryable } from './client.js';

const RETRY_MS = 1_000;
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_PREFIX = 'probe:';

/** A cache kept true by notifications: told of each payload on its channel, and whether it may trust itself. */
export interface ChangeSubscriber {
  channel: string;
  notify(payload: string): void;
  /** false while notifications may be missed: the subscriber must then ask the database instead. */
  setTrusted(trusted: boolean): void;
}

/**
 * Keeps one LISTEN connection per instance so writes made by other instances reach this instance's
 * caches (add-on public documents, API keys). While the connection is down every subscriber is
 * untrusted and asks the database, so a lost notification can never serve stale content.
 *
 * `databaseUrl` must be a session connection (DATABASE_DIRECT_URL): through a PgBouncer in transaction
 * pooling mode LISTEN "succeeds" but notifications never arrive. So the subscribers are trusted only
 * after a probe sent through the service's own pool (`db`, where writes notify) has arrived here.
 */
export function listenForChanges(databaseUrl: string, db: Queryable, log: FastifyBaseLogger, subscribers: ChangeSubscriber[]): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const probeChannel = subscribers[0]!.channel;
  // Several caches may follow one channel (apartment documents and apartment lists).
  const byChannel = new Map<string, ChangeSubscriber[]>();
  for (const s of subscribers) byChannel.set(s.channel, [...(byChannel.get(s.channel) ?? []), s]);
  // One warn line when the connection starts failing, one info line when it is back (not one per retry).
  const streak = new FailureStreak(log, 'change listener');
  const trust = (trusted: boolean) => {
    for (const s of subscribers) s.setTrusted(trusted);
  };

  const lost = () => {
    trust(false);
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
    let probeLost: () => void = () => undefined;
    const arrived = new Promise<boolean>((resolve) => {
      probeArrived = () => resolve(true);
      probeLost = () => resolve(false);
    });
    c.on('notification', (msg) => {
      if (!msg.payload) return;
      if (msg.payload.startsWith(PROBE_PREFIX)) {
        if (msg.payload === probe) probeArrived();
      } else for (const s of byChannel.get(msg.channel) ?? []) s.notify(msg.payload);
    });
    try {
      await c.connect();
      for (const channel of byChannel.keys()) await c.query(`LISTEN ${channel}`);
      await db.query('SELECT pg_notify($1, $2)', [probeChannel, probe]);
      // Counted from the probe's commit, not from the start: connecting may take seconds on a busy host.
      setTimeout(probeLost, PROBE_TIMEOUT_MS).unref();
      const ok = await arrived;
      if (closed) return void (await c.end());
      if (client !== c) return;
      if (ok) {
        streak.succeeded();
        trust(true);
      } else {
        log.warn(
          'change notifications do not arrive on the LISTEN connection (DATABASE_URL through a transaction-pooling PgBouncer? set DATABASE_DIRECT_URL); public reads verify versions and API keys are looked up on every request',
        );
      }
    } catch (err) {
      if (!closed) streak.failed(err, 'change listener unavailable; public reads verify versions and API keys are looked up on every request');
      if (client === c) lost();
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      trust(false);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
