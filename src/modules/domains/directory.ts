import type { FastifyBaseLogger } from 'fastify';
import type { ChangeSubscriber } from '../../db/change-listener.js';
import type { Database } from '../../db/client.js';
import { type VerifiedHost, domainsRepository as repo } from './repository.js';

/** NOTIFY channel of migration 0019: estate_domains and estates changed (payload: the organization). */
export const DOMAINS_CHANNEL = 'domains_changed';

/**
 * The verified hostnames, kept in memory: host routing (src/modules/domains/site.ts) decides before the
 * router runs, synchronously, and the TLS ask is called for every new handshake, so neither may wait for a
 * statement. Loaded at start, again after every change this instance makes, on every notification of
 * another instance's change (PostgreSQL), when the LISTEN connection is back, every `refreshMs` while it
 * is down (notifications may then be missed), and before routing a hostname whose organization this process
 * wrote to since the last read (`stale`: a slug renamed here).
 */
export class DomainDirectory {
  private hosts = new Map<string, VerifiedHost>();
  /** Each estate's canonical hostname: the first it verified. */
  private byEstate = new Map<string, string>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  /** The write clock when the kept set was read (src/db/write-scope.ts). */
  private stamp = -1;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly refreshMs: number,
  ) {}

  get(hostname: string): VerifiedHost | undefined {
    return this.hosts.get(hostname);
  }

  canonicalHost(estateId: string): string | undefined {
    return this.byEstate.get(estateId);
  }

  /**
   * Whether this process wrote anything of `organizationId` since the set was read: an estate's slug may have
   * changed (on PGlite no notification says so; on PostgreSQL this instance's own writes are known first here).
   */
  stale(organizationId: string): boolean {
    return this.db.writes.movedSince(this.stamp, organizationId);
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
        const stamp = this.db.writes.now();
        try {
          const rows = await repo.verifiedHosts(this.db);
          rows.sort((a, b) => (a.verifiedAt ?? '').localeCompare(b.verifiedAt ?? '') || a.hostname.localeCompare(b.hostname));
          const byEstate = new Map<string, string>();
          for (const row of rows) if (!byEstate.has(row.estateId)) byEstate.set(row.estateId, row.hostname);
          this.hosts = new Map(rows.map((row) => [row.hostname, row]));
          this.byEstate = byEstate;
          this.stamp = stamp;
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
