import type { Selectable } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import type { EstateDomains } from '../../db/schema.js';

export type DomainRow = Selectable<EstateDomains>;

/** A verified hostname as the service routes it: its estate, the estate's slug and owner. */
export interface VerifiedHost {
  hostname: string;
  estateId: string;
  organizationId: string;
  slug: string;
  verifiedAt: string | null;
}

/** estate_domains (migration 0019): every statement is scoped by organization except the service-wide reads named so. */
export const domainsRepository = {
  list(db: Queryable, organizationId: string, estateId: string): Promise<DomainRow[]> {
    return q(db)
      .selectFrom('estateDomains')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .orderBy('createdAt')
      .orderBy('hostname')
      .execute();
  },

  get(db: Queryable, organizationId: string, estateId: string, hostname: string, lock = false): Promise<DomainRow | undefined> {
    let query = q(db)
      .selectFrom('estateDomains')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .where('hostname', '=', hostname);
    if (lock) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  async count(db: Queryable, organizationId: string, estateId: string): Promise<number> {
    const row = await q(db)
      .selectFrom('estateDomains')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The hostname's primary key makes it one estate's in the whole service: a taken one is 23505 (409). */
  insert(db: Queryable, row: { hostname: string; estateId: string; organizationId: string; txtValue: string }): Promise<DomainRow> {
    return q(db).insertInto('estateDomains').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The outcome of a lookup: the new status and its timestamps. */
  update(
    db: Queryable,
    organizationId: string,
    hostname: string,
    fields: Partial<Pick<DomainRow, 'status' | 'verifiedAt' | 'checkedAt' | 'failingSince'>>,
  ): Promise<DomainRow | undefined> {
    return q(db)
      .updateTable('estateDomains')
      .set(fields)
      .where('organizationId', '=', organizationId)
      .where('hostname', '=', hostname)
      .returningAll()
      .executeTakeFirst();
  },

  async remove(db: Queryable, organizationId: string, estateId: string, hostname: string): Promise<boolean> {
    const rows = await q(db)
      .deleteFrom('estateDomains')
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .where('hostname', '=', hostname)
      .returning('hostname')
      .execute();
    return rows.length > 0;
  },

  /** Service-wide (host routing and the TLS ask have only a hostname): every verified hostname with its estate. */
  verifiedHosts(db: Queryable): Promise<VerifiedHost[]> {
    return q(db)
      .selectFrom('estateDomains as d')
      .innerJoin('estates as e', 'e.id', 'd.estateId')
      .select(['d.hostname', 'd.estateId', 'd.organizationId', 'e.slug', 'd.verifiedAt'])
      .where('d.status', '=', 'verified')
      .execute();
  },

  /** Service-wide (the re-verification task): verified hostnames not looked up since `before`, oldest first. */
  due(db: Queryable, before: string, limit: number): Promise<DomainRow[]> {
    return q(db)
      .selectFrom('estateDomains')
      .selectAll()
      .where('status', '=', 'verified')
      .where((eb) => eb.or([eb('checkedAt', 'is', null), eb('checkedAt', '<', before)]))
      .orderBy('checkedAt')
      .limit(limit)
      .execute();
  },
};
