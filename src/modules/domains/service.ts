import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { registerUniqueMessage } from '../../db/errors.js';
import { AppError, notFound, unprocessable } from '../../errors.js';
import { requireEstate } from '../estates/service.js';
import { emitEvent } from '../webhooks/events.js';
import { DomainDirectory } from './directory.js';
import { type TxtLookup, TxtResolver } from './dns.js';
import { checkHostname, hostnameKey } from './hostname.js';
import { type DomainRow, domainsRepository as repo } from './repository.js';
import { type Domain, type DomainStatus, txtNameOf } from './schemas.js';

registerUniqueMessage('estate_domains_pkey', 'This hostname is already connected to an estate');

/** Hostnames one estate may have (a page is one site; a few aliases at most). */
export const MAX_DOMAINS_PER_ESTATE = 20;
/** Verified hostnames looked up again per run of the re-verification. */
const RECHECK_BATCH = 100;

export const toDomain = (row: DomainRow): Domain => ({
  hostname: row.hostname,
  estateId: row.estateId,
  status: row.status as DomainStatus,
  verification: { txtName: txtNameOf(row.hostname), txtValue: row.txtValue },
  url: `https://${row.hostname}/`,
  createdAt: row.createdAt,
  verifiedAt: row.verifiedAt,
  checkedAt: row.checkedAt,
});

const quoted = (values: string[]) =>
  values
    .slice(0, 5)
    .map((v) => JSON.stringify(v.length > 100 ? `${v.slice(0, 100)}…` : v))
    .join(', ') + (values.length > 5 ? ` and ${values.length - 5} more` : '');

/** What a failed lookup found, in the words of the 422. */
function foundText(name: string, found: TxtLookup): string {
  if (found.kind === 'none') return found.reason === 'NXDOMAIN' ? `${name} does not exist in DNS (NXDOMAIN)` : `${name} has no TXT record`;
  if (found.kind === 'found')
    return `${name} has ${found.values.length} TXT record${found.values.length === 1 ? '' : 's'} (${quoted(found.values)}), none of them the value to set`;
  return `the DNS lookup of ${name} failed (${found.code})`;
}

export type DomainsConfig = Pick<Config, 'publicUrl' | 'domains'>;

/**
 * An estate's page at its own hostname (issue 37): add (pending, with the TXT record to create), list,
 * verify (a TXT lookup through DNS_SERVERS), remove, and the re-verification of verified hostnames
 * (`recheck`: a hostname whose record has been missing for DOMAIN_RECHECK_GRACE is unverified).
 */
export class DomainsService {
  readonly directory: DomainDirectory;
  readonly ownHost: string;
  private readonly resolver: TxtResolver;

  constructor(
    private readonly db: Database,
    private readonly config: DomainsConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.ownHost = new URL(config.publicUrl).hostname.toLowerCase();
    this.resolver = new TxtResolver(config.domains.dnsServers, config.domains.dnsTimeoutMs);
    this.directory = new DomainDirectory(db, log, config.domains.refreshMs);
  }

  async list(organizationId: string, estateId: string): Promise<Domain[]> {
    const estate = await requireEstate(this.db, organizationId, estateId);
    return (await repo.list(this.db, organizationId, estate.id)).map(toDomain);
  }

  async add(organizationId: string, estateId: string, input: { hostname: string }): Promise<Domain> {
    const checked = checkHostname(input.hostname, this.ownHost);
    if ('refused' in checked) {
      await requireEstate(this.db, organizationId, estateId);
      throw unprocessable(checked.message);
    }
    return this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      if ((await repo.count(tx, organizationId, estate.id)) >= MAX_DOMAINS_PER_ESTATE) {
        throw unprocessable(`Validation failed: an estate has at most ${MAX_DOMAINS_PER_ESTATE} hostnames; remove one first`);
      }
      const txtValue = `pps-verification=${randomBytes(24).toString('base64url')}`;
      return toDomain(await repo.insert(tx, { hostname: checked.hostname, estateId: estate.id, organizationId, txtValue }));
    });
  }

  private async find(organizationId: string, estateId: string, hostname: string): Promise<DomainRow> {
    const estate = await requireEstate(this.db, organizationId, estateId);
    const key = hostnameKey(hostname);
    const row = key ? await repo.get(this.db, organizationId, estate.id, key) : undefined;
    if (!row) throw new AppError('notFound', `Domain ${hostname} of estate ${estateId} not found`);
    return row;
  }

  /**
   * Looks the TXT record up: found with the domain's value, the domain is verified (domain.verified when
   * it was not); otherwise 422 saying what was found (a verified domain stays verified: the
   * re-verification's grace decides). A resolver that does not answer is 503.
   */
  async verify(organizationId: string, estateId: string, hostname: string): Promise<Domain> {
    const row = await this.find(organizationId, estateId, hostname);
    const name = txtNameOf(row.hostname);
    const found = await this.resolver.lookup(name);
    if (found.kind === 'failed') {
      throw new AppError('unavailable', `${foundText(name, found)}; retry later`, { retryAfterSeconds: 30 });
    }
    const ok = found.kind === 'found' && found.values.includes(row.txtValue);
    const now = new Date().toISOString();
    const after = await this.db.transaction(async (tx) => {
      const current = await repo.get(tx, organizationId, row.estateId, row.hostname, true);
      if (!current) throw new AppError('notFound', `Domain ${hostname} of estate ${estateId} not found`);
      if (!ok) {
        return repo.update(tx, organizationId, current.hostname, {
          checkedAt: now,
          failingSince: current.status === 'verified' ? (current.failingSince ?? now) : null,
        });
      }
      const becomes = current.status !== 'verified';
      const updated = await repo.update(tx, organizationId, current.hostname, {
        status: 'verified',
        verifiedAt: becomes ? now : current.verifiedAt,
        checkedAt: now,
        failingSince: null,
      });
      if (becomes && updated) await emitEvent(tx, organizationId, 'domain.verified', toDomain(updated));
      return updated;
    });
    if (!ok) {
      throw unprocessable(
        `Validation failed: hostname ${row.hostname} is not verified: ${foundText(name, found)}. Create a TXT record ${name} with the value ${row.txtValue}; DNS changes may take a while to be seen`,
      );
    }
    await this.directory.reload();
    return toDomain(after!);
  }

  /** Removes the hostname (domain.removed): from then on it is not served and gets no certificate. */
  async remove(organizationId: string, estateId: string, hostname: string): Promise<void> {
    const row = await this.find(organizationId, estateId, hostname);
    const removed = await this.db.transaction(async (tx) => {
      if (!(await repo.remove(tx, organizationId, row.estateId, row.hostname))) return false;
      await emitEvent(tx, organizationId, 'domain.removed', toDomain(row));
      return true;
    });
    if (!removed) throw notFound('Domain', hostname);
    await this.directory.reload();
  }

  /**
   * One run of the re-verification at `now`: every verified hostname not looked up for
   * DOMAIN_RECHECK_INTERVAL is looked up again; a record found clears its failures, a record missing since
   * DOMAIN_RECHECK_GRACE or longer makes it unverified (domain.unverified). A resolver that does not answer
   * counts as nothing. Returns the hostnames it unverified.
   */
  async recheck(now = new Date()): Promise<string[]> {
    const { recheckIntervalMs, recheckGraceMs } = this.config.domains;
    const due = await repo.due(this.db, new Date(now.getTime() - recheckIntervalMs).toISOString(), RECHECK_BATCH);
    const unverified: string[] = [];
    for (const row of due) {
      const found = await this.resolver.lookup(txtNameOf(row.hostname));
      if (found.kind === 'failed') continue;
      const ok = found.kind === 'found' && found.values.includes(row.txtValue);
      const at = now.toISOString();
      const lost = await this.db.transaction(async (tx) => {
        const current = await repo.get(tx, row.organizationId, row.estateId, row.hostname, true);
        if (current?.status !== 'verified') return false;
        if (ok) {
          await repo.update(tx, current.organizationId, current.hostname, { checkedAt: at, failingSince: null });
          return false;
        }
        const since = current.failingSince ?? at;
        const expired = now.getTime() - new Date(since).getTime() >= recheckGraceMs;
        const updated = await repo.update(tx, current.organizationId, current.hostname, {
          checkedAt: at,
          failingSince: since,
          ...(expired ? { status: 'unverified' } : {}),
        });
        if (expired && updated) await emitEvent(tx, current.organizationId, 'domain.unverified', toDomain(updated));
        return expired;
      });
      if (lost) {
        unverified.push(row.hostname);
        this.log.info({ hostname: row.hostname }, 'domain unverified: its TXT record has been missing for the re-verification window');
      }
    }
    if (unverified.length > 0) await this.directory.reload();
    return unverified;
  }

  private timer: NodeJS.Timeout | undefined;

  /** Starts the re-verification (every DOMAIN_RECHECK_EVERY) and loads the verified hostnames. */
  async start(): Promise<void> {
    await this.directory.reload();
    const every = this.config.domains.recheckEveryMs;
    this.timer = setInterval(() => {
      this.recheck().catch((err) => this.log.warn({ err }, 'domain re-verification failed; the next run tries again'));
    }, every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.directory.stop();
    this.resolver.cancel();
  }
}
