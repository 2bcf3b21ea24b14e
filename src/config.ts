import path from 'node:path';
import { DATABASE_THREAD_PRIORITY, type ThreadPriority } from './db/pglite-thread.js';
import type { S3StoreOptions } from './storage/s3.js';

/** Settings read once from the environment at the entry point, then passed down frozen. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * A session connection to the same PostgreSQL for what a transaction-pooling PgBouncer cannot carry
   * (LISTEN for add-on cache invalidation); DATABASE_URL when unset.
   */
  databaseDirectUrl: string | undefined;
  /**
   * How the embedded database's thread yields the CPU to the server's (DATABASE_THREAD_PRIORITY; Linux):
   * `idle`, or nice levels 0-19 below the server's thread. Checked always, used only without DATABASE_URL.
   */
  databaseThreadPriority: ThreadPriority;
  adminToken: string | undefined;
  redisUrl: string | undefined;
  /** Readiness reports DATA_DIR's disk as full below this many free bytes (DISK_MIN_FREE_MB, 100). */
  diskMinFreeBytes: number;
  /** Deadline of every Redis call (REDIS_TIMEOUT_MS, 150 ms); past it the instance counts limits itself. */
  redisTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * ALLOW_PRIVATE_URLS (old name ALLOW_PRIVATE_ASSET_URLS): URLs the service fetches or posts to may be
   * private, loopback or link-local: asset URLs and webhook endpoints. For tests and local development only.
   */
  allowPrivateUrls: boolean;
  storage: { driver: 'disk' } | ({ driver: 's3' } & S3StoreOptions);
  /**
   * STORAGE_TIMEOUT_MS (3 s): overall deadline of a storage call that is not a stream (stat, delete, a
   * read until its first byte, readiness); STORAGE_IDLE_TIMEOUT_MS (4 s): an S3 stream that moves no
   * byte this long is aborted. Past either the request answers 503.
   */
  storageTimeouts: { callMs: number; idleMs: number };
  rateLimit: {
    /** Requests per window for one API key. */
    keyMax: number;
    /** Requests per window for one anonymous client IP. */
    anonymousMax: number;
    /** Public inquiry submissions per window for one client IP. */
    inquiryMax: number;
    windowMs: number;
  };
  corsOrigins: string[];
  trustProxy: boolean;
  requestTimeoutMs: number;
  /** Bearer token of GET /metrics; the endpoint does not exist when unset. */
  metricsToken: string | undefined;
  /** OpenTelemetry trace export (OTLP/HTTP); the SDK is not loaded when unset. */
  tracing: { endpoint: string; serviceName: string } | undefined;
  /**
   * Fault points for the crash tests (`TEST_FAULTS=true`, honoured only when NODE_ENV=test): a request
   * may then ask, by header, to be cut at a named point (see src/http/idempotency.ts).
   */
  testFaults: boolean;
  /**
   * The kept answers (src/db/read-cache.ts): CACHE_MAX_MB (256) bounds the bytes every cache of the process
   * holds together; CACHE_TTL_MS (1 s) is, on PostgreSQL, the longest a kept list, page or publishable
   * answer is used (for another instance's new apartment, which no notification reports).
   */
  cache: { maxBytes: number; ttlMs: number };
  webhooks: {
    /** Delays before the 2nd, 3rd, … attempt of a delivery (WEBHOOK_RETRY_SCHEDULE); its length + 1 is the attempt count. */
    retryScheduleMs: number[];
    /** How long a receiver has to answer 2xx (WEBHOOK_TIMEOUT_MS, 10 s). */
    timeoutMs: number;
    /** 32-byte key that seals endpoint secrets at rest (WEBHOOK_SECRET_KEY); unset stores them unsealed. */
    secretKey: Buffer | undefined;
  };
  /** Custom domains (issue 37; src/modules/domains). */
  domains: {
    /** DNS_SERVERS: the resolvers of TXT lookups (`ip` or `ip:port`, comma-separated); the system's when empty. */
    dnsServers: string[];
    /** DNS_TIMEOUT_MS (2 s): one try of a TXT lookup (two tries). */
    dnsTimeoutMs: number;
    /** DOMAIN_RECHECK_INTERVAL (1d): a verified hostname is looked up again when its last lookup is this old. */
    recheckIntervalMs: number;
    /** DOMAIN_RECHECK_GRACE (3d): a verified hostname whose record has been missing this long becomes unverified. */
    recheckGraceMs: number;
    /** DOMAIN_RECHECK_EVERY (1h): how often the re-verification looks for hostnames due. */
    recheckEveryMs: number;
    /** While the LISTEN connection is down, the verified hostnames are read again this often (5 s). */
    refreshMs: number;
    /** TLS_ASK_MAX (100): answers of GET /internal/tls/allowed per second and instance; past it 429. */
    askMaxPerSecond: number;
  };
}

export class ConfigError extends Error {}

/** Every environment variable loadConfig reads (a unit test checks the list against what it reads). */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_THREAD_PRIORITY',
  'ADMIN_TOKEN',
  'REDIS_URL',
  'REDIS_TIMEOUT_MS',
  'DISK_MIN_FREE_MB',
  'LOG_LEVEL',
  'ALLOW_PRIVATE_URLS',
  'ALLOW_PRIVATE_ASSET_URLS',
  'STORAGE_DRIVER',
  'CACHE_MAX_MB',
  'CACHE_TTL_MS',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PUBLIC_URL',
  'S3_PREFIX',
  'STORAGE_TIMEOUT_MS',
  'STORAGE_IDLE_TIMEOUT_MS',
  'RATE_LIMIT_KEY_MAX',
  'RATE_LIMIT_ANONYMOUS_MAX',
  'RATE_LIMIT_INQUIRY_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'CORS_ORIGINS',
  'TRUST_PROXY',
  'REQUEST_TIMEOUT_MS',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'NODE_ENV',
  'TEST_FAULTS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_SECRET_KEY',
  'DNS_SERVERS',
  'DNS_TIMEOUT_MS',
  'DOMAIN_RECHECK_INTERVAL',
  'DOMAIN_RECHECK_GRACE',
  'DOMAIN_RECHECK_EVERY',
  'TLS_ASK_MAX',
] as const;

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** ALLOW_PRIVATE_URLS, or its old name ALLOW_PRIVATE_ASSET_URLS (still read); both set must agree. */
function allowPrivateUrls(env: Env): boolean {
  const current = env.ALLOW_PRIVATE_URLS !== undefined && env.ALLOW_PRIVATE_URLS !== '' ? bool(env, 'ALLOW_PRIVATE_URLS', false) : undefined;
  const old = env.ALLOW_PRIVATE_ASSET_URLS !== undefined && env.ALLOW_PRIVATE_ASSET_URLS !== '' ? bool(env, 'ALLOW_PRIVATE_ASSET_URLS', false) : undefined;
  if (current !== undefined && old !== undefined && current !== old) {
    throw new ConfigError(`ALLOW_PRIVATE_URLS (${current}) and its old name ALLOW_PRIVATE_ASSET_URLS (${old}) disagree; set only ALLOW_PRIVATE_URLS`);
  }
  return current ?? old ?? false;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use one of ${protocols.join(', ')}`);
  }
  return raw;
}

function required(env: Env, name: string, why: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new ConfigError(`${name} is required ${why}`);
  return raw;
}

/** `idle`, or a number of nice levels from 0 to 19. */
function threadPriority(env: Env, name: string): ThreadPriority {
  const raw = env[name];
  if (raw === undefined || raw === '') return DATABASE_THREAD_PRIORITY;
  if (raw === 'idle') return 'idle';
  if (!/^\d+$/.test(raw) || Number(raw) > 19) {
    throw new ConfigError(`${name} must be "idle" or a number of nice levels from 0 to 19, got "${raw}"`);
  }
  return Number(raw);
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "5s,1m,10m,1h" -> milliseconds; every step between 10 ms and 7 days, at most 30 steps. */
function durations(env: Env, name: string, fallback: string): number[] {
  const raw = env[name] || fallback;
  const steps = raw.split(',').map((s) => s.trim());
  const out = steps.map((step) => {
    const m = /^(\d+)(ms|s|m|h|d)$/.exec(step);
    if (!m) throw new ConfigError(`${name} must be a comma-separated list of durations like 5s,1m,10m,1h, got "${raw}"`);
    return Number(m[1]) * DURATION_UNITS[m[2]!]!;
  });
  if (out.length > 30 || out.some((ms) => ms < 10 || ms > 7 * 86_400_000)) {
    throw new ConfigError(`${name} takes at most 30 steps, each between 10ms and 7d, got "${raw}"`);
  }
  return out;
}

/** One duration ("1d", "90s", "250ms"), between 10 ms and 7 days. */
function duration(env: Env, name: string, fallback: string): number {
  const steps = durations(env, name, fallback);
  if (steps.length !== 1) throw new ConfigError(`${name} must be one duration like 1d, 6h or 30s, got "${env[name]}"`);
  return steps[0]!;
}

/** DNS_SERVERS: IP addresses, each with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53). */
function dnsServers(env: Env, name: string): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const servers = raw.split(',').map((s) => s.trim());
  for (const server of servers) {
    const m = /^(?:\[([0-9a-f:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/i.exec(server) ?? /^([0-9a-f:]+)()$/i.exec(server);
    if (!m || (m[3] !== undefined && Number(m[3]) > 65535)) {
      throw new ConfigError(`${name} must be comma-separated IP addresses with optional ports (1.1.1.1, 127.0.0.1:5353, [::1]:53), got "${raw}"`);
    }
  }
  return servers;
}

/** WEBHOOK_SECRET_KEY: 32 bytes as base64 (or 64 hex digits). */
function secretKey(env: Env, name: string): Buffer | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(`${name} must be 32 bytes, base64 or hex encoded (openssl rand -base64 32)`);
  return key;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = int(env, 'PORT', 3000, 0, 65535);
  // Both read always (CONFIG_VARIABLES lists them); the fault hooks exist only in test mode.
  const faultsAsked = bool(env, 'TEST_FAULTS', false);
  const testFaults = env.NODE_ENV === 'test' && faultsAsked;
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const databaseDirectUrl = url(env, 'DATABASE_DIRECT_URL', ['postgres:', 'postgresql:']);
  if (databaseDirectUrl && !databaseUrl) throw new ConfigError('DATABASE_DIRECT_URL needs DATABASE_URL');
  const otlpEndpoint = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const storageTimeouts = {
    callMs: int(env, 'STORAGE_TIMEOUT_MS', 3_000, 100, 600_000),
    idleMs: int(env, 'STORAGE_IDLE_TIMEOUT_MS', 4_000, 100, 600_000),
  };
  const driver = env.STORAGE_DRIVER || 'disk';
  let storage: Config['storage'];
  if (driver === 'disk') {
    if (env.S3_PREFIX) throw new ConfigError("S3_PREFIX applies only with STORAGE_DRIVER=s3 (a DATA_DIR is already one database's)");
    storage = { driver: 'disk' };
  } else if (driver === 's3') {
    storage = {
      driver: 's3',
      bucket: required(env, 'S3_BUCKET', 'when STORAGE_DRIVER=s3'),
      region: env.S3_REGION || 'us-east-1',
      endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
      publicBaseUrl: url(env, 'S3_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
      prefix: s3Prefix(env.S3_PREFIX),
      timeoutMs: storageTimeouts.callMs,
      idleTimeoutMs: storageTimeouts.idleMs,
    };
  } else throw new ConfigError(`STORAGE_DRIVER must be "disk" or "s3", got "${driver}"`);

  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

  return Object.freeze({
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databaseDirectUrl: databaseDirectUrl ?? databaseUrl,
    databaseThreadPriority: threadPriority(env, 'DATABASE_THREAD_PRIORITY'),
    adminToken,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    diskMinFreeBytes: int(env, 'DISK_MIN_FREE_MB', 100, 0, 100_000_000) * 1024 * 1024,
    redisTimeoutMs: int(env, 'REDIS_TIMEOUT_MS', 150, 10, 10_000),
    logLevel,
    allowPrivateUrls: allowPrivateUrls(env),
    storage,
    storageTimeouts,
    rateLimit: {
      keyMax: int(env, 'RATE_LIMIT_KEY_MAX', 1200, 1, 1_000_000_000),
      anonymousMax: int(env, 'RATE_LIMIT_ANONYMOUS_MAX', 600, 1, 1_000_000_000),
      inquiryMax: int(env, 'RATE_LIMIT_INQUIRY_MAX', 10, 1, 1_000_000_000),
      windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    },
    corsOrigins,
    trustProxy: bool(env, 'TRUST_PROXY', false),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    metricsToken,
    tracing: otlpEndpoint ? { endpoint: otlpEndpoint.replace(/\/+$/, ''), serviceName: env.OTEL_SERVICE_NAME || 'estate-publisher' } : undefined,
    testFaults,
    cache: {
      maxBytes: int(env, 'CACHE_MAX_MB', 256, 8, 1_000_000) * 1024 * 1024,
      ttlMs: int(env, 'CACHE_TTL_MS', 1_000, 100, 3_600_000),
    },
    webhooks: {
      retryScheduleMs: durations(env, 'WEBHOOK_RETRY_SCHEDULE', '5s,1m,10m,1h,3h,6h,12h'),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      secretKey: secretKey(env, 'WEBHOOK_SECRET_KEY'),
    },
    domains: {
      dnsServers: dnsServers(env, 'DNS_SERVERS'),
      dnsTimeoutMs: int(env, 'DNS_TIMEOUT_MS', 2_000, 50, 60_000),
      recheckIntervalMs: duration(env, 'DOMAIN_RECHECK_INTERVAL', '1d'),
      recheckGraceMs: duration(env, 'DOMAIN_RECHECK_GRACE', '3d'),
      recheckEveryMs: duration(env, 'DOMAIN_RECHECK_EVERY', '1h'),
      refreshMs: 5_000,
      askMaxPerSecond: int(env, 'TLS_ASK_MAX', 100, 1, 1_000_000),
    },
  });
}

/**
 * S3_PREFIX as every key's prefix: path segments of letters, digits, `.`, `_` and `-` (no empty, `.`
 * or `..` segment, no leading slash), at most 200 characters, ending in one slash ('' when unset).
 */
function s3Prefix(raw: string | undefined): string {
  if (!raw) return '';
  const trimmed = raw.replace(/\/$/, '');
  const segments = trimmed.split('/');
  if (trimmed.length > 200 || segments.some((s) => !/^[A-Za-z0-9._-]+$/.test(s) || s === '.' || s === '..')) {
    throw new ConfigError(`S3_PREFIX must be path segments of letters, digits, ".", "_" and "-" separated by "/" (at most 200 characters), got "${raw}"`);
  }
  return `${trimmed}/`;
}
