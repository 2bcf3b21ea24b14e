import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { createTestDatabase } from './database.js';
import { installResponseContract } from './response-contract.js';

export const ADMIN_TOKEN = 'test-operator-token-0123456789';

export interface TestOrg {
  id: string;
  name: string;
  key: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: Readonly<Config>;
  storage: BlobStore;
  dataDir: string;
  /** app.inject with JSON convenience: `body` objects are sent as JSON, `key` becomes the Bearer header. */
  request(opts: RequestOptions): Promise<LightMyRequestResponse>;
  createOrg(name?: string, featureFlags?: string[]): Promise<TestOrg>;
  /** Issues another key for an organization, e.g. read-only. */
  issueKey(orgId: string, scopes: Array<'read' | 'write' | 'publishable'>): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method: InjectOptions['method'];
  url: string;
  key?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  storage?: (dataDir: string) => BlobStore;
  /** Pino options for the app's logger (tests that read the log); silent by default. */
  logger?: Record<string, unknown>;
  /** 'on-demand': image variants are made only when requested (tests of the pending state). */
  imageJobs?: 'background' | 'on-demand';
  /**
   * PostgreSQL: configure the database's URLs so the app keeps its LISTEN connection and its caches are
   * trusted, as a deployed instance's are (resolves once they are). No effect on PGlite (always trusted).
   */
  listen?: boolean;
}

let orgCounter = 0;

/** The real app (buildApp, same validation as production) on a fresh database and a temp DATA_DIR. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-test-'));
  const database = await createTestDatabase();
  const config = loadConfig({
    ADMIN_TOKEN,
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_URLS: 'true',
    ...(options.listen && database.url ? { DATABASE_URL: database.url, DATABASE_DIRECT_URL: database.directUrl! } : {}),
    ...options.env,
  });
  const storage = options.storage ? options.storage(dataDir) : new DiskBlobStore(path.join(dataDir, 'files'));
  const app = await buildApp({
    config,
    db: database.db,
    storage,
    logger: options.logger ?? false,
    imageJobs: options.imageJobs,
    testHooks: installResponseContract,
  });
  await app.ready();
  if (options.listen) {
    for (let i = 0; i < 400 && !app.services.pages.pages.isTrusted; i++) await new Promise((r) => setTimeout(r, 25));
    if (!app.services.pages.pages.isTrusted) throw new Error('the LISTEN connection did not come up');
  }

  const request = (opts: RequestOptions) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    const inject: InjectOptions = { method: opts.method, url: opts.url, headers };
    if (opts.query) inject.query = opts.query;
    if (opts.body !== undefined) {
      if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) inject.payload = opts.body;
      else {
        inject.payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    return app.inject(inject);
  };

  const createOrg = async (name = `Org ${++orgCounter}`, featureFlags?: string[]): Promise<TestOrg> => {
    const res = await request({
      method: 'POST',
      url: '/api/v1/admin/organizations',
      key: ADMIN_TOKEN,
      body: featureFlags ? { name, featureFlags } : { name },
    });
    if (res.statusCode !== 201) throw new Error(`createOrg failed: ${res.statusCode} ${res.body}`);
    const body = res.json() as { organization: { id: string; name: string }; apiKey: string };
    return { id: body.organization.id, name: body.organization.name, key: body.apiKey };
  };

  const issueKey = async (orgId: string, scopes: Array<'read' | 'write' | 'publishable'>) => {
    const res = await request({ method: 'POST', url: `/api/v1/admin/organizations/${orgId}/api-keys`, key: ADMIN_TOKEN, body: { scopes } });
    if (res.statusCode !== 201) throw new Error(`issueKey failed: ${res.statusCode} ${res.body}`);
    const body = res.json() as { id: string; apiKey: string };
    return { id: body.id, key: body.apiKey };
  };

  return {
    app,
    db: database.db,
    config,
    storage,
    dataDir,
    request,
    createOrg,
    issueKey,
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
