import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      adminToken: undefined,
      storage: { driver: 'disk' },
    });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseThreadPriority).toBe('idle');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads the documented variables', () => {
    const c = loadConfig({
      PORT: '8080',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@db:5432/app',
      ADMIN_TOKEN: 'a-very-long-operator-token',
      PUBLIC_URL: 'https://api.example.com/',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'b',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(c).toMatchObject({ port: 8080, dataDir: '/tmp/x', databaseUrl: 'postgres://u@db:5432/app', publicUrl: 'https://api.example.com' });
    expect(c.storage).toMatchObject({ driver: 's3', bucket: 'b', forcePathStyle: true, prefix: '' });
    // S3_PREFIX: every key under it, written with or without its final slash.
    expect(loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: 'estates/prod' }).storage).toMatchObject({ prefix: 'estates/prod/' });
    expect(loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: 'staging/' }).storage).toMatchObject({ prefix: 'staging/' });
    expect(loadConfig({ DATABASE_THREAD_PRIORITY: '0' }).databaseThreadPriority).toBe(0);
    expect(loadConfig({ DATABASE_THREAD_PRIORITY: '19' }).databaseThreadPriority).toBe(19);
    expect(loadConfig({ DATABASE_THREAD_PRIORITY: 'idle' }).databaseThreadPriority).toBe('idle');
  });

  it('reads the operations settings: metrics token, direct database URL, trace export', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@pgbouncer:6432/app',
      DATABASE_DIRECT_URL: 'postgres://u@db:5432/app',
      METRICS_TOKEN: 'a-long-metrics-token',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
    });
    expect(c).toMatchObject({
      databaseUrl: 'postgres://u@pgbouncer:6432/app',
      databaseDirectUrl: 'postgres://u@db:5432/app',
      metricsToken: 'a-long-metrics-token',
      tracing: { endpoint: 'http://collector:4318', serviceName: 'estate-publisher' },
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/app' }).databaseDirectUrl).toBe('postgres://u@db/app');
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });

  it('reads ALLOW_PRIVATE_URLS, and its old name ALLOW_PRIVATE_ASSET_URLS when it is not set', () => {
    expect(loadConfig({}).allowPrivateUrls).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_URLS: 'true' }).allowPrivateUrls).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_ASSET_URLS: 'true' }).allowPrivateUrls).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_URLS: 'false', ALLOW_PRIVATE_ASSET_URLS: 'false' }).allowPrivateUrls).toBe(false);
  });

  it('lists every variable it reads in CONFIG_VARIABLES', () => {
    const read = new Set<string>();
    const base = { STORAGE_DRIVER: 's3', S3_BUCKET: 'b', DATABASE_URL: 'postgres://db/app', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    const env = new Proxy(base as Record<string, string | undefined>, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    loadConfig(env);
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  // Each invalid setting stops start-up with a message naming the variable.
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ DATABASE_DIRECT_URL: 'postgres://db/app' }, 'DATABASE_DIRECT_URL'],
    [{ DATABASE_URL: 'postgres://db/app', DATABASE_DIRECT_URL: 'mysql://db/app' }, 'DATABASE_DIRECT_URL'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ STORAGE_DRIVER: 'floppy' }, 'STORAGE_DRIVER'],
    [{ STORAGE_DRIVER: 's3' }, 'S3_BUCKET'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'nope' }, 'S3_ENDPOINT'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: '../other' }, 'S3_PREFIX'],
    [{ S3_PREFIX: 'estates/' }, 'S3_PREFIX'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: '/abs' }, 'S3_PREFIX'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: 'a//b' }, 'S3_PREFIX'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: 'a b' }, 'S3_PREFIX'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PREFIX: 'x'.repeat(201) }, 'S3_PREFIX'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
    [{ ALLOW_PRIVATE_ASSET_URLS: 'maybe' }, 'ALLOW_PRIVATE_ASSET_URLS'],
    [{ ALLOW_PRIVATE_URLS: 'maybe' }, 'ALLOW_PRIVATE_URLS'],
    [{ ALLOW_PRIVATE_URLS: 'true', ALLOW_PRIVATE_ASSET_URLS: 'false' }, 'ALLOW_PRIVATE_URLS'],
    [{ RATE_LIMIT_KEY_MAX: '0' }, 'RATE_LIMIT_KEY_MAX'],
    [{ RATE_LIMIT_WINDOW_MS: '1.5' }, 'RATE_LIMIT_WINDOW_MS'],
    [{ DATABASE_THREAD_PRIORITY: '20' }, 'DATABASE_THREAD_PRIORITY'],
    [{ DATABASE_THREAD_PRIORITY: '-1' }, 'DATABASE_THREAD_PRIORITY'],
    [{ DATABASE_THREAD_PRIORITY: 'low' }, 'DATABASE_THREAD_PRIORITY'],
    [{ REDIS_TIMEOUT_MS: '0' }, 'REDIS_TIMEOUT_MS'],
    [{ STORAGE_TIMEOUT_MS: 'soon' }, 'STORAGE_TIMEOUT_MS'],
    [{ STORAGE_IDLE_TIMEOUT_MS: '50' }, 'STORAGE_IDLE_TIMEOUT_MS'],
    [{ DISK_MIN_FREE_MB: '-1' }, 'DISK_MIN_FREE_MB'],
  ];
  it.each(cases)('%j is refused naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}\\b`));
  });
});
