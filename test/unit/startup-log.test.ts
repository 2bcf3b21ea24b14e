import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createOrganizationCommand, describeDatabase, describeMigrations, describeReady, describeStorage, postgresTarget } from '../../src/startup-log.js';

describe('start-up lines', () => {
  it('name a PostgreSQL database by host, port and name only, never its credentials or parameters', () => {
    expect(postgresTarget('postgres://app:s3cret@db.internal:6432/estates?sslmode=require&password=x')).toBe('db.internal:6432/estates');
    expect(postgresTarget('postgresql://db.internal/estates')).toBe('db.internal:5432/estates');
    const line = describeDatabase({ databaseUrl: 'postgres://app:s3cret@db.internal/estates', dataDir: '/srv/data' });
    expect(line.msg).toBe('database: PostgreSQL at db.internal:5432/estates');
    expect(JSON.stringify(line)).not.toMatch(/s3cret|app@/);
    expect(describeDatabase({ databaseUrl: undefined, dataDir: '/srv/data' }).msg).toBe('database: embedded PGlite at /srv/data/pglite');
  });

  it('name the storage: the disk path, or the bucket with its endpoint origin (no credentials) or AWS region', () => {
    expect(describeStorage({ storage: { driver: 'disk' }, dataDir: '/srv/data' }).msg).toBe('storage: files on disk at /srv/data/files');
    const s3 = {
      driver: 's3' as const,
      bucket: 'estates',
      region: 'eu-central-1',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'shh',
      forcePathStyle: true,
      publicBaseUrl: undefined,
    };
    const minio = describeStorage({ storage: { ...s3, endpoint: 'http://user:pw@minio.local:9000/path' }, dataDir: '/srv/data' });
    expect(minio.msg).toBe('storage: S3 bucket estates (http://minio.local:9000)');
    expect(JSON.stringify(minio)).not.toMatch(/AKIA1|shh|pw@/);
    expect(describeStorage({ storage: { ...s3, endpoint: undefined }, dataDir: '/srv/data' }).msg).toBe('storage: S3 bucket estates (AWS eu-central-1)');
  });

  it('count the migrations applied, and say when none were', () => {
    expect(describeMigrations(['0001_a', '0002_b'], 11, 1234.4).msg).toBe('migrations: applied 2 of 11 in 1234 ms');
    expect(describeMigrations([], 11, 12).fields).toEqual({ applied: 0, total: 11, durationMs: 12 });
  });

  it('print a command that, pasted where ADMIN_TOKEN is unset, stops before curl and says what to set', () => {
    // Port 9 (discard): were curl to run, it would fail to connect, with another message and exit code 7.
    const { env } = process;
    const run = spawnSync('bash', ['-c', createOrganizationCommand('http://127.0.0.1:9')], {
      env: Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'ADMIN_TOKEN')),
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBe(7);
    expect(run.stderr).toContain('ADMIN_TOKEN: export ADMIN_TOKEN=<the token this server was started with>');
  });

  it('add how to create the first organization only while there is none', () => {
    expect(describeReady('http://localhost:3000', true, true).msg).toBe('ready: http://localhost:3000 (API reference at http://localhost:3000/docs)');
    const first = describeReady('http://localhost:3000', false, true).msg;
    expect(first).toContain('from a shell where ADMIN_TOKEN holds the token this server was started with: ');
    expect(first.endsWith(createOrganizationCommand('http://localhost:3000'))).toBe(true);
    expect(first).toContain('curl -X POST http://localhost:3000/api/v1/admin/organizations --oauth2-bearer "${ADMIN_TOKEN:?');
    expect(describeReady('http://localhost:3000', false, false).msg).toContain('create-org');
  });
});
