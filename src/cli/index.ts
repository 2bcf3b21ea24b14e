#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { AppError } from '../errors.js';
import { DASHBOARD_ROLES, type DashboardRole, PeopleService } from '../modules/dashboard/people/service.js';
import { CreateOrganizationBody, IssueKeyBody } from '../modules/organizations/schemas.js';
import { API_KEY_SCOPES, type ApiKeyScope, OrganizationsService } from '../modules/organizations/service.js';
import { openRuntime } from '../runtime.js';

const USAGE = `Usage: estate-publisher <command> [options]

Operator tasks straight against the database (DATABASE_URL, or the embedded one under DATA_DIR).
While the server runs on the embedded database, use the admin API instead.

Commands:
  create-org --name <name> [--feature-flags a,b]   create an organization; prints {organization, apiKey}
  issue-key --org <organizationId> [--scopes read,write|publishable] [--name <label>] [--expires-at <ISO time>]
                                                   issue another API key; prints it once
                                                   (publishable: for browsers, reads what a public page shows)
  revoke-key --key-id <keyId>                      revoke a key (it answers 401 from then on)
  invite --org <organizationId> --email <e> [--role admin|editor|viewer]
                                                   invite a person to the dashboard (default role admin);
                                                   prints {id, url, expiresAt}: the single-use link, 7 days
  list-orgs                                        list organizations as JSON
  migrate                                          apply pending migrations
  serve                                            start the HTTP server (same as npm start)

Over the HTTP API of any deployment (an organization key with the write scope):
  apply <project.yaml> [--dry-run] [--prune-addons] [--url <URL>] [--key <KEY>]
                                                   make the service match a project file: prints the plan
                                                   (+ create, ~ update, - remove), then applies it; --url and
                                                   --key default to PUBLISHER_URL and PUBLISHER_KEY
  schema                                           print the JSON Schema of the project file
`;

/** A mistake in how the command was called: usage is printed and the exit code is 2. */
class UsageError extends Error {}

const list = (raw: string | undefined) =>
  raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/** The CLI checks its input with the same schemas as the admin API, so both refuse the same things. */
function checked<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const first = Value.Errors(schema, value).First();
  if (first) {
    const field = first.path.replace(/^\//, '').replace(/\//g, '.') || 'input';
    throw new UsageError(`--${field.split('.')[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is invalid (${field}: ${first.message})`);
  }
  return value as Static<T>;
}

function options(args: string[], spec: Record<string, { type: 'string' }>) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

type Write = (text: string) => void;

const APPLY_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'prune-addons': { type: 'boolean' },
} as const;

/**
 * The CLI's database, said at once when DATA_DIR is held: the start waits up to LOCK_WAIT_MS for a
 * process that is going away (a server still draining after its stop) before it refuses.
 */
const openForCli = (purpose: string, err: Write) =>
  openRuntime(loadConfig(), purpose, {
    onLockWait: (holder, waitMs) => err(`estate-publisher: the data directory is in use (${holder}); waiting up to ${waitMs / 1000} s for it to stop...\n`),
  });

async function withOrganizations<T>(err: Write, fn: (organizations: OrganizationsService) => Promise<T>): Promise<T> {
  const runtime = await openForCli('estate-publisher CLI', err);
  try {
    return await fn(new OrganizationsService(runtime.db));
  } finally {
    await runtime.close();
  }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Runs one command; resolves to the process exit code. */
export async function runCli(argv: string[], out: Write, err: Write): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'create-org': {
        const o = options(rest, { name: { type: 'string' }, 'feature-flags': { type: 'string' } });
        if (o.name === undefined) throw new UsageError('--name is required');
        const flags = list(o['feature-flags']);
        const input = checked(CreateOrganizationBody, flags ? { name: o.name, featureFlags: flags } : { name: o.name });
        out(json(await withOrganizations(err, (orgs) => orgs.create(input))));
        return 0;
      }
      case 'issue-key': {
        const o = options(rest, { org: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, 'expires-at': { type: 'string' } });
        if (o.org === undefined) throw new UsageError('--org is required');
        const scopes = list(o.scopes);
        const unknown = scopes?.find((s) => !API_KEY_SCOPES.includes(s as ApiKeyScope));
        if (unknown !== undefined) throw new UsageError(`--scopes takes read and/or write, or publishable alone, comma-separated; got "${unknown}"`);
        const input = checked(IssueKeyBody, {
          ...(o.name !== undefined ? { name: o.name } : {}),
          ...(scopes ? { scopes } : {}),
          ...(o['expires-at'] !== undefined ? { expiresAt: o['expires-at'] } : {}),
        });
        out(json(await withOrganizations(err, (orgs) => orgs.issueKey(o.org!, input))));
        return 0;
      }
      case 'revoke-key': {
        const o = options(rest, { 'key-id': { type: 'string' } });
        if (o['key-id'] === undefined) throw new UsageError('--key-id is required');
        await withOrganizations(err, (orgs) => orgs.revokeKey(o['key-id']!));
        out(json({ revoked: o['key-id'] }));
        return 0;
      }
      case 'invite': {
        const o = options(rest, { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } });
        if (o.org === undefined) throw new UsageError('--org is required');
        if (o.email === undefined) throw new UsageError('--email is required');
        const role = o.role ?? 'admin';
        if (!DASHBOARD_ROLES.includes(role as DashboardRole)) throw new UsageError(`--role takes admin, editor or viewer; got "${role}"`);
        const config = loadConfig();
        const runtime = await openForCli('estate-publisher CLI', err);
        try {
          out(json(await new PeopleService(runtime.db, config).invite(o.org, { email: o.email, role }, null)));
        } finally {
          await runtime.close();
        }
        return 0;
      }
      case 'list-orgs': {
        options(rest, {});
        out(json(await withOrganizations(err, (orgs) => orgs.list(0, 10_000))));
        return 0;
      }
      case 'migrate': {
        options(rest, {});
        const runtime = await openForCli('estate-publisher migrate', err);
        await runtime.close();
        out(json({ applied: runtime.applied }));
        return 0;
      }
      case 'apply': {
        let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof APPLY_OPTIONS; allowPositionals: true; strict: true }>>;
        try {
          parsed = parseArgs({ args: rest, options: APPLY_OPTIONS, allowPositionals: true, strict: true });
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        const [file, ...extra] = parsed.positionals;
        if (file === undefined || extra.length > 0) throw new UsageError('apply takes one project file');
        const url = parsed.values.url ?? process.env.PUBLISHER_URL;
        const key = parsed.values.key ?? process.env.PUBLISHER_KEY;
        if (!url) throw new UsageError('--url (or PUBLISHER_URL) is required: where the service runs, e.g. https://publisher.example.com');
        if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new UsageError(`--url must be an http(s) URL; got "${url}"`);
        if (!key) throw new UsageError('--key (or PUBLISHER_KEY) is required: an organization API key with the write scope');
        const { runApply } = await import('./apply/run.js');
        return await runApply({ file, url, key, dryRun: parsed.values['dry-run'] ?? false, pruneAddons: parsed.values['prune-addons'] ?? false }, out, err);
      }
      case 'schema': {
        options(rest, {});
        const { manifestJsonSchema } = await import('./apply/manifest.js');
        out(json(manifestJsonSchema()));
        return 0;
      }
      case 'serve': {
        options(rest, {});
        const { startServer } = await import('../server.js');
        await startServer();
        return -1; // the server owns the process from here and exits on a signal
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      err(`estate-publisher: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof DataDirLockedError) {
      err(
        `estate-publisher: ${e.message}\n` +
          'The CLI works on the database directly and only while the server is stopped. With the server running, ' +
          'use its admin API instead (Authorization: Bearer <ADMIN_TOKEN>), e.g. POST /api/v1/admin/organizations.\n',
      );
      return 1;
    }
    if (e instanceof ConfigError || e instanceof AppError) {
      err(`estate-publisher: ${e.message}\n`);
      return 1;
    }
    err(`estate-publisher: ${(e as Error)?.message ?? String(e)}\n`);
    return 1;
  }
}

const entry = process.argv[1];
const isMain = entry !== undefined && realpathSync(entry) === fileURLToPath(import.meta.url);
if (isMain) {
  const code = await runCli(
    process.argv.slice(2),
    (s) => process.stdout.write(s),
    (s) => process.stderr.write(s),
  );
  if (code >= 0) process.exitCode = code;
}
