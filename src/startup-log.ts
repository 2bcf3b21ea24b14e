import path from 'node:path';
import type { Config } from './config.js';

/**
 * What a start says at `info` before its first request (issue 28): the database, the storage, the
 * migrations applied and "ready". Never a credential: a URL is reduced to its host, port and name.
 */
export interface StartupLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** host:port/database of a postgres:// URL, without user, password or parameters. */
export function postgresTarget(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
  return `${url.hostname}:${url.port || '5432'}/${database}`;
}

export function describeDatabase(config: Readonly<Pick<Config, 'databaseUrl' | 'dataDir'>>): { fields: object; msg: string } {
  if (config.databaseUrl) {
    const target = postgresTarget(config.databaseUrl);
    return { fields: { engine: 'postgres', target }, msg: `database: PostgreSQL at ${target}` };
  }
  const dir = path.join(config.dataDir, 'pglite');
  return { fields: { engine: 'pglite', dataDir: dir }, msg: `database: embedded PGlite at ${dir}` };
}

export function describeStorage(config: Readonly<Pick<Config, 'storage' | 'dataDir'>>): { fields: object; msg: string } {
  const { storage } = config;
  if (storage.driver === 'disk') {
    const dir = path.join(config.dataDir, 'files');
    return { fields: { storage: 'disk', path: dir }, msg: `storage: files on disk at ${dir}` };
  }
  const endpoint = storage.endpoint ? new URL(storage.endpoint).origin : undefined;
  return {
    fields: {
      storage: 's3',
      bucket: storage.bucket,
      ...(storage.prefix ? { prefix: storage.prefix } : {}),
      region: storage.region,
      ...(endpoint ? { endpoint } : {}),
    },
    msg: `storage: S3 bucket ${storage.bucket}${storage.prefix ? ` under ${storage.prefix}` : ''} (${endpoint ?? `AWS ${storage.region}`})`,
  };
}

export function describeMigrations(applied: string[], total: number, ms: number): { fields: object; msg: string } {
  const durationMs = Math.round(ms);
  return applied.length === 0
    ? { fields: { applied: 0, total, durationMs }, msg: `migrations: none to apply, all ${total} applied before (checked in ${durationMs} ms)` }
    : { fields: { applied: applied.length, total, durationMs }, msg: `migrations: applied ${applied.length} of ${total} in ${durationMs} ms` };
}

/**
 * The "ready" line: where the API answers and, while no organization exists, the command that makes
 * the first one (the admin API when ADMIN_TOKEN is set, otherwise how to turn it on).
 */
export function describeReady(url: string, hasOrganization: boolean, adminTokenSet: boolean): { fields: object; msg: string } {
  const fields = { url, docs: `${url}/docs` };
  if (hasOrganization) return { fields, msg: `ready: ${url} (API reference at ${url}/docs)` };
  const next = adminTokenSet
    ? `no organization yet; create one from a shell where ADMIN_TOKEN holds the token this server was started with: ${createOrganizationCommand(url)}`
    : 'no organization yet; ADMIN_TOKEN is unset, so the admin API is off: stop the server and run `npm run --silent cli -- create-org --name "My Company"`, or restart it with ADMIN_TOKEN=<a long random token> and POST /api/v1/admin/organizations';
  return { fields, msg: `ready: ${url} (API reference at ${url}/docs); ${next}` };
}

/**
 * The command of the "ready" line, as a shell runs it when pasted (README, Quick start). The token is read
 * from the shell's ADMIN_TOKEN, never printed; where it is unset (another shell, or a start written
 * `ADMIN_TOKEN=… npm start`, which sets it for the server only) the shell stops before curl runs and says
 * what to set. curl's --oauth2-bearer sends "Authorization: Bearer": written as a header, the log's
 * redaction of "Bearer <token>" would print it as "Bearer [redacted]".
 */
export function createOrganizationCommand(url: string): string {
  return `curl -X POST ${url}/api/v1/admin/organizations --oauth2-bearer "\${ADMIN_TOKEN:?export ADMIN_TOKEN=<the token this server was started with>}" -H 'Content-Type: application/json' -d '{"name":"My Company"}'`;
}
