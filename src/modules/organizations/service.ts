import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { CacheStore } from '../../db/read-cache.js';
import { conflict, notFound, unprocessable } from '../../errors.js';
import { KeyCache } from '../../http/key-cache.js';
import { isUuid, newId } from '../../ids.js';
import { KeyUse } from './key-use.js';
import { type ApiKeyRow, organizationsRepository as repo } from './repository.js';
import type { ApiKey, CurrentKey, IssuedKey, Organization } from './schemas.js';

export type ApiKeyScope = 'read' | 'write' | 'publishable';
export const API_KEY_SCOPES: ApiKeyScope[] = ['read', 'write', 'publishable'];
/** What a key gets when the request names no scopes. */
const DEFAULT_SCOPES: ApiKeyScope[] = ['read', 'write'];
/** What the CLI's own key cache may hold. */
const CLI_CACHE_BYTES = 1024 * 1024;

const KEY_PREFIX = 'epk_';
/** Publishable keys say what they are, so a leaked one in a page's source is recognisable as harmless. */
const PUBLISHABLE_PREFIX = 'epk_pub_';

/** A key of the publishable scope reads only what a public page shows (src/http/publishable.ts). */
export const isPublishable = (auth: { scopes: readonly string[] } | null | undefined): boolean => auth?.scopes.includes('publishable') === true;

export interface KeyInput {
  name?: string | undefined;
  scopes?: ApiKeyScope[] | undefined;
  expiresAt?: string | undefined;
}

/** Keys carry 32 random bytes, so one SHA-256 is a sufficient, fast hash to look them up by. */
export const hashKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export class OrganizationsService {
  /** Keys seen recently (src/http/key-cache.ts); trusted from the start on PGlite, the only writer. */
  readonly keyCache: KeyCache;
  /** When each key was last used (the server's authentication records it; the dashboard shows it). */
  readonly keyUse: KeyUse;

  /** `store`: the app's kept answers (src/db/read-cache.ts); the CLI, which authenticates once, keeps its own. */
  constructor(
    private readonly db: Database,
    store: CacheStore = new CacheStore(CLI_CACHE_BYTES),
    log?: FastifyBaseLogger,
  ) {
    this.keyCache = new KeyCache(store, db.kind === 'pglite');
    this.keyUse = new KeyUse(db, log);
  }

  async create(input: { name: string; featureFlags?: string[] | undefined }): Promise<{ organization: Organization; apiKey: string; apiKeyId: string }> {
    return this.db.transaction(async (tx) => {
      const org = await repo.insert(tx, { id: newId(), name: input.name.trim(), featureFlags: input.featureFlags ?? [] });
      const key = await this.issueKeyIn(tx, org.id, { name: 'default' });
      return { organization: org, apiKey: key.apiKey, apiKeyId: key.id };
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

  /** The operator issues a key for any organization. */
  async issueKey(organizationId: string, input: KeyInput): Promise<IssuedKey> {
    await this.get(organizationId);
    return this.issueKeyIn(this.db, organizationId, input);
  }

  /** An organization issues a key for itself (POST /api/v1/api-keys). */
  createKey(organizationId: string, input: KeyInput): Promise<IssuedKey> {
    return this.issueKeyIn(this.db, organizationId, input);
  }

  /** The calling key (it authenticated, so it exists, is not revoked and has not expired). */
  async currentKey(organizationId: string, keyId: string): Promise<CurrentKey> {
    const row = await repo.findKey(this.db, organizationId, keyId);
    if (!row) throw notFound('API key', keyId);
    return { id: row.id, name: row.name, scopes: row.scopes as ApiKeyScope[], organizationId, expiresAt: row.expiresAt };
  }

  async listKeys(organizationId: string): Promise<ApiKey[]> {
    return (await repo.listKeys(this.db, organizationId)).map(keyView);
  }

  /** The keys as the dashboard lists them: the API's view and when each was last used (to the minute; null: never). */
  async listKeysWithUse(organizationId: string): Promise<Array<ApiKey & { lastUsedAt: string | null }>> {
    return (await repo.listKeys(this.db, organizationId)).map((row) => ({ ...keyView(row), lastUsedAt: row.lastUsedAt }));
  }

  private async issueKeyIn(db: Parameters<typeof repo.insertKey>[0], organizationId: string, input: KeyInput): Promise<IssuedKey> {
    const scopes = [...new Set(input.scopes?.length ? input.scopes : DEFAULT_SCOPES)];
    const publishable = scopes.includes('publishable');
    if (publishable && scopes.length > 1) {
      throw unprocessable('Validation failed: scopes publishable cannot be combined with read or write (a publishable key is meant for browsers)');
    }
    if (input.expiresAt !== undefined && !(Date.parse(input.expiresAt) > Date.now())) {
      throw unprocessable('Validation failed: expiresAt must be in the future');
    }
    const secret = (publishable ? PUBLISHABLE_PREFIX : KEY_PREFIX) + randomBytes(32).toString('base64url');
    const row = await repo.insertKey(db, {
      id: newId(),
      organizationId,
      name: input.name?.trim() || 'key',
      hash: hashKey(secret),
      prefix: secret.slice(0, publishable ? 16 : 12),
      scopes,
      expiresAt: input.expiresAt ?? null,
    });
    const { revokedAt: _revokedAt, ...view } = keyView(row);
    return { ...view, apiKey: secret };
  }

  /** The operator revokes any key (DELETE /admin/api-keys/{id}). */
  async revokeKey(keyId: string): Promise<void> {
    if (!isUuid(keyId) || !(await repo.keyExists(this.db, keyId))) throw notFound('API key', keyId);
    await repo.revokeKey(this.db, keyId);
    this.keyCache.revoked(keyId);
  }

  /**
   * An organization revokes one of its keys; revoking a revoked key is a no-op. Its last usable write
   * key cannot be revoked (409): without one, nobody but the operator could manage the organization.
   */
  async revokeOwnKey(organizationId: string, keyId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const key = isUuid(keyId) ? await repo.findKey(tx, organizationId, keyId) : undefined;
      if (!key) throw notFound('API key', keyId);
      if (key.revokedAt !== null) return;
      if (key.scopes.includes('write')) {
        const writers = await repo.lockUsableWriteKeys(tx, organizationId);
        if (writers.length === 1 && writers[0] === keyId) {
          throw conflict(`API key ${keyId} is the organization's last write key; issue another write key before revoking it`);
        }
      }
      await repo.revokeKey(tx, keyId);
    });
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
    const identity = { organizationId: row.organizationId, keyId: row.id, scopes: row.scopes as ApiKeyScope[], expiresAt: row.expiresAt };
    this.keyCache.store(hash, identity, snapshot);
    return identity;
  }
}

const keyView = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes as ApiKeyScope[],
  prefix: row.keyPrefix,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
});
