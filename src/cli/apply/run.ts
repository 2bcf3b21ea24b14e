/**
 * `estate-publisher apply project.yaml`: reads the file, reads the service, prints the plan, then runs
 * it. Everything goes through the typed client over HTTP, so it serves any deployment.
 */
import { readFile } from 'node:fs/promises';
import { PublisherError, createPublisherClient, must } from '../../../clients/typescript/src/index.js';
import { ManifestError, loadManifest } from './load.js';
import { type Change, type Plan, countChanges, planApply } from './plan/index.js';
import { measureAssets, readState } from './state.js';

export interface ApplyOptions {
  file: string;
  url: string;
  key: string;
  dryRun: boolean;
  pruneAddons: boolean;
  /** The fetch the client sends with (tests put a real server's death between two requests). */
  fetch?: (request: Request) => Promise<Response>;
  /** Attempts after the first on 429/5xx/network errors (default the client's). */
  retries?: number;
}

type Write = (text: string) => void;

/** What apply needs of its key: read to compare (external ids, assets, add-ons), write to change. */
const requiredScopes = (dryRun: boolean) => (dryRun ? ['read'] : ['read', 'write']);
const SCOPE_REASONS: Record<string, string> = {
  read: 'to read the apartments with their externalId, the assets and the add-ons it compares the file with',
  write: 'to make the changes',
};

/** What went wrong, said for a person: the service's own message, or why it could not be reached. */
export function describeFailure(error: unknown, url: string): string {
  if (error instanceof PublisherError) return `the service answered ${error.status}: ${error.body?.message ?? error.message}`;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (error instanceof TypeError && cause) return `could not reach ${url} (${cause.code ?? cause.message})`;
  return (error as Error)?.message ?? String(error);
}

function printPlan(plan: Plan, out: Write): void {
  const lines: string[] = [];
  const line = (c: Change) => {
    lines.push(`  ${c.sign} ${c.what}`);
    for (const d of c.details) lines.push(`      ${d}`);
  };
  plan.changes.forEach(line);
  if (plan.kept.length > 0) {
    lines.push('', 'Not in the file, kept (--prune-addons removes them):');
    for (const k of plan.kept) lines.push(`    ${k}`);
  }
  const n = countChanges(plan.changes);
  lines.push('', `Plan: ${n.create} to create, ${n.update} to update, ${n.remove} to remove.`);
  out(`${lines.join('\n')}\n`);
}

/** Exit codes: 0 applied (or nothing to do), 1 stopped by the service or the network, 2 a bad file or a key without the scopes it needs. */
export async function runApply(options: ApplyOptions, out: Write, err: Write): Promise<number> {
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (e) {
    err(`estate-publisher: cannot read ${options.file}: ${(e as Error).message}\n`);
    return 2;
  }
  let loaded: Awaited<ReturnType<typeof loadManifest>>;
  try {
    loaded = await loadManifest(options.file, text);
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    err(`estate-publisher: ${options.file} is not a valid project file; nothing was sent.\n${e.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return 2;
  }
  const { manifest } = loaded;
  const client = createPublisherClient({
    baseUrl: options.url,
    key: options.key,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  });

  let local: Awaited<ReturnType<typeof measureAssets>>;
  try {
    local = await measureAssets(manifest, loaded.baseDir);
  } catch (e) {
    err(`estate-publisher: could not read the current state, nothing was changed: ${describeFailure(e, options.url)}\n`);
    return 1;
  }

  // The key before the service is read: one that cannot read what the plan compares (a publishable key sees no externalId,
  // so every apartment would look new) or cannot write the changes would print a wrong plan, then fail.
  let scopes: readonly string[];
  try {
    scopes = (await must(client.api.GET('/api/v1/api-keys/current'))).scopes;
  } catch (e) {
    err(`estate-publisher: could not read the current state, nothing was changed: ${describeFailure(e, options.url)}\n`);
    return 1;
  }
  const missing = requiredScopes(options.dryRun).filter((s) => !scopes.includes(s));
  if (missing.length > 0) {
    err(
      `estate-publisher: the key has the scopes ${scopes.join(', ')}; apply${options.dryRun ? ' --dry-run' : ''} needs ${missing.map((s) => `the ${s} scope`).join(' and ')} ` +
        `(${SCOPE_REASONS[missing[0]!]}). Use an organization key with ${requiredScopes(options.dryRun).join(' and ')}; nothing was changed.\n`,
    );
    return 2;
  }

  let plan: Plan;
  try {
    const state = await readState(client, manifest);
    plan = planApply(client, manifest, state, local, { pruneAddons: options.pruneAddons });
  } catch (e) {
    err(`estate-publisher: could not read the current state, nothing was changed: ${describeFailure(e, options.url)}\n`);
    return 1;
  }

  out(`Estate ${manifest.estate.slug} on ${options.url}\n`);
  if (plan.changes.length === 0 && plan.actions.length === 0) {
    if (plan.kept.length > 0) out(`Not in the file, kept (--prune-addons removes them):\n${plan.kept.map((k) => `    ${k}\n`).join('')}`);
    out('No changes. The service matches the file.\n');
    return 0;
  }
  printPlan(plan, out);
  if (options.dryRun) {
    out('Dry run: nothing was sent.\n');
    return 0;
  }

  out('\nApplying:\n');
  let done = 0;
  for (const action of plan.actions) {
    try {
      const result = await action.run();
      if (result !== 'unchanged') out(`  ✓ ${action.label}\n`);
      done++;
    } catch (e) {
      out(`  ✗ ${action.label}\n`);
      err(
        `estate-publisher: ${action.label} failed: ${describeFailure(e, options.url)}\n` +
          `${done} of ${plan.actions.length} steps were applied and stay applied. Fix the cause and run apply again: it plans from what the service holds then.\n`,
      );
      return 1;
    }
  }
  const n = countChanges(plan.changes);
  out(`\nApplied: ${n.create} created, ${n.update} updated, ${n.remove} removed.\n`);
  return 0;
}
