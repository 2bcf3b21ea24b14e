import type { FastifyBaseLogger } from 'fastify';
import type { ChangeSubscriber } from '../../db/change-listener.js';
import type { Queryable } from '../../db/client.js';
import { type VerifiedHost, domainsRepository as repo } from './repository.js';

/** NOTIFY channel of migration 0019: estate_domains and estates changed (payload: the organization). */
export const DOMAINS_CHANNEL = 'domains_changed';

/**
 * The verified hostnames, kept in memory: host routing (src/modules/domains/site.ts) decides before the
 * router runs, synchronously, and the TLS ask is called for every new handshake, so neither may wait for a
 * statement. Loaded at start, again after every change this instance makes, on every notification of
 * another instance's change (PostgreSQL), when the LISTEN connection is back, and every `refreshMs` while it
 * is down (notifications may then be missed).
 */
export class DomainDirectory {
  private hosts = new Map<string, VerifiedHost>();
  /** Each estate's canonical hostname: the first it verified. */
  private byEstate = new Map<string, string>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly log: FastifyBaseLogger,
    private readonly refreshMs: number,
  ) {}

  get(hostname: string): VerifiedHost | undefined {
    return this.hosts.get(hostname);
  }

  canonicalHost(estateId: string): string | undefined {
    return this.byEstate.get(estateId);
  }

  get size(): number {
    return this.hosts.size;
  }

  /** Reads the verified hostnames again; a reload asked while one runs makes one more after it. */
  reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          const rows = await repo.verifiedHosts(this.db);
          rows.sort((a, b) => (a.verifiedAt ?? '').localeCompare(b.verifiedAt ?? '') || a.hostname.localeCompare(b.hostname));
          const byEstate = new Map<string, string>();
          for (const row of rows) if (!byEstate.has(row.estateId)) byEstate.set(row.estateId, row.hostname);
          this.hosts = new Map(rows.map((row) => [row.hostname, row]));
          this.byEstate = byEstate;
        } catch (err) {
          // The last set stays in use; the next change or refresh tries again.
          this.log.warn({ err }, 'verified hostnames could not be read again');
        }
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Follows other instances' changes (src/db/change-listener.ts). */
  subscriber(): ChangeSubscriber {
    return {
      channel: DOMAINS_CHANNEL,
      notify: () => void this.reload(),
      setTrusted: (trusted) => {
        if (trusted) {
          if (this.timer) clearInterval(this.timer);
          this.timer = undefined;
          void this.reload();
        } else if (!this.timer) {
          this.timer = setInterval(() => void this.reload(), this.refreshMs);
          this.timer.unref();
        }
      },
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
