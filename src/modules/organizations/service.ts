import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { KeyCache } from '../../http/key-cache.js';
import { isUuid, newId } from '../../ids.js';
import { organizationsRepository as repo } from './repository.js';
import type { IssuedKey, Organization } from './schemas.js';

export type ApiKeyScope = 'read' | 'write';
export const API_KEY_SCOPES: ApiKeyScope[] = ['read', 'write'];

const KEY_PREFIX = 'epk_';

/** Keys carry 32 random bytes, so one SHA-256 is a sufficient, fast hash to look them up by. */
export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export class OrganizationsService {
  /** Keys seen recently (src/http/key-cache.ts); trusted from the start on PGlite, the only writer. */
  readonly keyCache: KeyCache;

  constructor(private readonly db: Database) {
    this.keyCache = new KeyCache(db.kind === 'pglite');
  }

  async create(input: { name: string; featureFlags?: string[] | undefined }): Promise<{ organization: Organization; apiKey: string }> {
    return this.db.transaction(async (tx) => {
      const org = await repo.insert(tx, { id: newId(), name: input.name.trim(), featureFlags: input.featureFlags ?? [] });
      const key = await this.issueKeyIn(tx, org.id, 'default', API_KEY_SCOPES);
      return { organization: org, apiKey: key.apiKey };
    });
  }

  async list(offset = 0, limit = 100): Promise<Organization[]> {
    return repo.list(this.db, offset, limit);
  }

  async get(id: string): Promise<Organization> {
    const row = isUuid(id) ? await repo.get(this.db, id) : undefined;
    if (!row) throw notFound('Organization', id);
    return row;
  }

  async issueKey(organizationId: string, input: { name?: string | undefined; scopes?: ApiKeyScope[] | undefined }): Promise<IssuedKey> {
    await this.get(organizationId);
    return this.issueKeyIn(this.db, organizationId, input.name?.trim() || 'key', input.scopes?.length ? input.scopes : API_KEY_SCOPES);
  }

  private async issueKeyIn(db: Parameters<typeof repo.insertKey>[0], organizationId: string, name: string, scopes: ApiKeyScope[]): Promise<IssuedKey> {
    const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
    const unique = [...new Set(scopes)];
    const row = await repo.insertKey(db, {
      id: newId(),
      organizationId,
      name,
      hash: hashKey(secret),
      prefix: secret.slice(0, 12),
      scopes: unique,
    });
    return { id: row.id, name: row.name, scopes: row.scopes, apiKey: secret, createdAt: row.createdAt };
  }

  async revokeKey(keyId: string): Promise<void> {
    if (!isUuid(keyId) || !(await repo.keyExists(this.db, keyId))) throw notFound('API key', keyId);
    await repo.revokeKey(this.db, keyId);
    this.keyCache.revoked(keyId);
  }

  /** Resolves a presented secret to its organization, or null when it is unknown or revoked. */
  async authenticate(secret: string): Promise<{ organizationId: string; keyId: string; scopes: ApiKeyScope[] } | null> {
    if (!secret.startsWith(KEY_PREFIX) || secret.length > 200) return null;
    const hash = hashKey(secret);
    const cached = this.keyCache.lookup(hash);
    if (cached) return cached as { organizationId: string; keyId: string; scopes: ApiKeyScope[] };
    const snapshot = this.keyCache.snapshot();
    const row = await repo.findActiveKeyByHash(this.db, hash);
    if (!row) return null;
    const identity = { organizationId: row.organizationId, keyId: row.id, scopes: row.scopes as ApiKeyScope[] };
    this.keyCache.store(hash, identity, snapshot);
    return identity;
  }
}
