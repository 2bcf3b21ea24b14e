import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { lockDataDir } from '../../src/db/data-dir-lock.js';
import { OrganizationsService } from '../../src/modules/organizations/service.js';
import { TEST_DATABASE, createTestDatabaseUrl } from '../helpers/database.js';
import { childEnv, finished, freePort, runCli, spawnTs, startServerChild, waitReady } from '../helpers/processes.js';

/**
 * The operator CLI as a child process, on the engine this run targets: the embedded database under a
 * temp DATA_DIR, or (TEST_DATABASE=postgres) a fresh PostgreSQL database through DATABASE_URL.
 */
describe(`estate-publisher CLI on ${TEST_DATABASE}`, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pps-cli-'));
    if (TEST_DATABASE === 'postgres') {
      const created = await createTestDatabaseUrl();
      databaseUrl = created.url;
      dropDatabase = created.drop;
    }
    env = childEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  }, 120_000);
  afterAll(async () => {
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Opens the same database the CLI used (after it exited and released DATA_DIR) to check its effect. */
  async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'pglite') });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  let orgId: string;
  let firstKey: string;

  it('migrate applies the migrations once', async () => {
    const first = await runCli(['migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).applied).toContain('0001_foundation');
    const again = await runCli(['migrate'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ applied: [] });
  }, 120_000);

  it('create-org prints {organization, apiKey}; the key authenticates', async () => {
    const res = await runCli(['create-org', '--name', 'Acme Homes', '--feature-flags', 'estates,beta'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.organization).toMatchObject({ name: 'Acme Homes', featureFlags: ['estates', 'beta'] });
    expect(out.apiKey).toMatch(/^epk_/);
    orgId = out.organization.id;
    firstKey = out.apiKey;
    const auth = await withDb((db) => new OrganizationsService(db).authenticate(firstKey));
    expect(auth).toEqual({ organizationId: orgId, keyId: expect.any(String), scopes: ['read', 'write'], expiresAt: null });
  }, 120_000);

  it('issue-key and revoke-key', async () => {
    const issued = await runCli(['issue-key', '--org', orgId, '--scopes', 'read', '--name', 'reporting'], env);
    expect(issued.code, issued.stderr).toBe(0);
    const key = JSON.parse(issued.stdout);
    expect(key).toMatchObject({ name: 'reporting', scopes: ['read'], apiKey: expect.stringMatching(/^epk_/) });
    const revoked = await runCli(['revoke-key', '--key-id', key.id], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const [gone, kept] = await withDb(async (db) => {
      const orgs = new OrganizationsService(db);
      return [await orgs.authenticate(key.apiKey), await orgs.authenticate(firstKey)];
    });
    expect(gone).toBeNull();
    expect(kept?.organizationId).toBe(orgId);
  }, 120_000);

  it('invite prints a single-use dashboard link (issue 35); a bad role is a usage error', async () => {
    const res = await runCli(['invite', '--org', orgId, '--email', 'first.admin@acme.example'], { ...env, PUBLIC_URL: 'https://publisher.example.com' });
    expect(res.code, res.stderr).toBe(0);
    const invitation = JSON.parse(res.stdout);
    expect(invitation.url).toMatch(/^https:\/\/publisher\.example\.com\/dashboard\/invitations\/[\w-]{43}$/);
    const [row] = await withDb((db) =>
      db.query<{ role: string; email: string }>('SELECT role, email FROM dashboard_invitations WHERE id = $1', [invitation.id]),
    );
    expect(row).toEqual({ role: 'admin', email: 'first.admin@acme.example' });
    const bad = await runCli(['invite', '--org', orgId, '--email', 'x@acme.example', '--role', 'owner'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role');
  }, 120_000);

  it('list-orgs prints the organizations', async () => {
    const res = await runCli(['list-orgs'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ id: orgId, name: 'Acme Homes' })]);
  }, 120_000);

  it('refuses bad input with a message and a non-zero exit', async () => {
    const noName = await runCli(['create-org'], env);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/--name is required/);
    const badScope = await runCli(['issue-key', '--org', orgId, '--scopes', 'admin'], env);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toMatch(/--scopes/);
    const unknownOrg = await runCli(['issue-key', '--org', '01890000-0000-7000-8000-000000000009'], env);
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toMatch(/Organization with id 01890000-0000-7000-8000-000000000009 not found/);
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    const badConfig = await runCli(['list-orgs'], { ...env, PORT: 'eighty' });
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toMatch(/PORT/);
  }, 120_000);

  it('serve starts the HTTP server on the same database; SIGTERM stops it with exit 0', async () => {
    const server = startServerChild({ ...env, ADMIN_TOKEN: 'cli-serve-operator-token' }, await freePort(), ['src/cli/index.ts', 'serve']);
    try {
      await waitReady(server);
      const res = await fetch(`${server.url}/api/v1/estate`, { headers: { authorization: `Bearer ${firstKey}` } });
      expect(res.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    const end = await server.exited;
    expect(end.code, end.stderr).toBe(0);
  }, 120_000);

  // DATA_DIR guards the embedded database only, so this runs on PGlite whatever the run targets.
  it('refuses a locked DATA_DIR, pointing to the admin API, without opening the database', async () => {
    const lockedDir = await mkdtemp(path.join(os.tmpdir(), 'pps-cli-locked-'));
    const lock = lockDataDir(lockedDir, 'server');
    try {
      const child = spawnTs('src/cli/index.ts', ['create-org', '--name', 'While running'], childEnv({ DATA_DIR: lockedDir }));
      const done = finished(child);
      // The wait is announced when it begins: the line arrives while the process still waits.
      let early = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr?.on('data', (d: Buffer) => {
          early += d.toString();
          if (early.includes('waiting up to 5 s')) resolve();
        });
        done.then(() => reject(new Error(`exited without announcing the wait:\n${early}`)), reject);
      });
      expect(early).toMatch(/the data directory is in use \(pid \d+, server\); waiting up to 5 s for it to stop/);
      expect(child.exitCode).toBe(null);
      const res = await done;
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/in use by another process \(pid \d+, server\)/);
      expect(res.stderr).toMatch(/admin API/);
      expect(res.stdout).toBe('');
      expect(existsSync(path.join(lockedDir, 'pglite'))).toBe(false);
    } finally {
      lock.release();
      await rm(lockedDir, { recursive: true, force: true });
    }
  }, 120_000);
});
