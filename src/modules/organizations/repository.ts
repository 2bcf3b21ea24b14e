import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { prepared, q } from '../../db/query.js';
import type { ApiKeys, Organizations } from '../../db/schema.js';
import { KEY_CHANNEL } from '../../http/key-cache.js';

export type OrganizationRow = Selectable<Organizations>;
/** A key as the service shows it: never its hash (nor when it was last used, which only the dashboard shows). */
export type ApiKeyRow = Omit<Selectable<ApiKeys>, 'keyHash' | 'lastUsedAt'>;

const KEY_COLUMNS = ['id', 'organizationId', 'name', 'keyPrefix', 'scopes', 'createdAt', 'expiresAt', 'revokedAt'] as const;

/** Every authenticated request that misses the key cache runs this: compiled once. An expired key is unknown. */
const activeKey = prepared((k, hash: string) =>
  k
    .selectFrom('apiKeys')
    .select(KEY_COLUMNS)
    .where('keyHash', '=', hash)
    .where('revokedAt', 'is', null)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<string>`now()`)])),
);

export const organizationsRepository = {
  insert(db: Queryable, org: { id: string; name: string; featureFlags: string[] }): Promise<OrganizationRow> {
    return q(db).insertInto('organizations').values(org).returningAll().executeTakeFirstOrThrow();
  },

  get(db: Queryable, id: string): Promise<OrganizationRow | undefined> {
    return q(db).selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  },

  list(db: Queryable, offset: number, limit: number): Promise<OrganizationRow[]> {
    return q(db).selectFrom('organizations').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
  },

  insertKey(
    db: Queryable,
    key: { id: string; organizationId: string; name: string; hash: string; prefix: string; scopes: string[]; expiresAt: string | null },
  ): Promise<ApiKeyRow> {
    const { hash, prefix, ...rest } = key;
    return q(db)
      .insertInto('apiKeys')
      .values({ ...rest, keyHash: hash, keyPrefix: prefix })
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  async findActiveKeyByHash(db: Queryable, hash: string): Promise<ApiKeyRow | undefined> {
    return (await activeKey(db, hash))[0];
  },

  /**
   * Revokes a key and, in the same statement, notifies `api_key_revoked` (delivered at commit), so every
   * instance's key cache drops it within the notification's round trip (src/http/key-cache.ts).
   */
  async revokeKey(db: Queryable, keyId: string): Promise<boolean> {
    const rows = await q(db)
      .with('revoked', (k) => k.updateTable('apiKeys').set({ revokedAt: sql`now()` }).where('id', '=', keyId).where('revokedAt', 'is', null).returning('id'))
      .selectFrom('revoked')
      .select((eb) => eb.fn('pg_notify', [eb.val(KEY_CHANNEL), eb.cast<string>('revoked.id', 'text')]).as('notified'))
      .execute();
    return rows.length > 0;
  },

  async keyExists(db: Queryable, keyId: string): Promise<boolean> {
    return (await q(db).selectFrom('apiKeys').select('id').where('id', '=', keyId).executeTakeFirst()) !== undefined;
  },

  /** An organization's keys, newest first, revoked and expired ones included (they say so), with when each was last used. */
  listKeys(db: Queryable, organizationId: string): Promise<Array<ApiKeyRow & { lastUsedAt: string | null }>> {
    return q(db)
      .selectFrom('apiKeys')
      .select([...KEY_COLUMNS, 'lastUsedAt'])
      .where('organizationId', '=', organizationId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  findKey(db: Queryable, organizationId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    return q(db).selectFrom('apiKeys').select(KEY_COLUMNS).where('organizationId', '=', organizationId).where('id', '=', keyId).executeTakeFirst();
  },

  /**
   * Records that a key was used now, unless a use less than `withinSeconds` ago is recorded already
   * (another instance wrote it): then the statement finds no row and writes nothing.
   */
  async recordKeyUse(db: Queryable, keyId: string, withinSeconds: number): Promise<void> {
    await q(db)
      .updateTable('apiKeys')
      .set({ lastUsedAt: sql`now()` })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', sql<string>`now() - make_interval(secs => ${withinSeconds})`)]))
      .execute();
  },

  /**
   * The ids of the organization's usable write keys (not revoked, not expired), locked until the
   * transaction ends: two revocations racing for the last two write keys are serialised here, so
   * they cannot both succeed.
   */
  async lockUsableWriteKeys(db: Queryable, organizationId: string): Promise<string[]> {
    const rows = await q(db)
      .selectFrom('apiKeys')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('revokedAt', 'is', null)
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<string>`now()`)]))
      .where(sql<boolean>`'write' = ANY(scopes)`)
      .forUpdate()
      .execute();
    return rows.map((r) => r.id);
  },
};
