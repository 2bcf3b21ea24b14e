import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runApply } from '../../src/cli/apply/run.js';
import { ROOT } from './processes.js';

const EXAMPLE = path.join(ROOT, 'examples');

/** A copy of examples/ (the project file and its files) to edit. */
export async function projectDir(slug = 'harbour-view'): Promise<{ dir: string; file: string; edit(change: (text: string) => string): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pps-apply-'));
  await cp(EXAMPLE, dir, { recursive: true });
  const file = path.join(dir, 'project.yaml');
  // Slugs are unique across organizations: each test's estate has its own.
  await writeFile(file, (await readFile(file, 'utf8')).replace('slug: harbour-view', `slug: ${slug}`));
  return {
    dir,
    file,
    async edit(change) {
      const before = await readFile(file, 'utf8');
      const after = change(before);
      if (after === before) throw new Error('the edit changed nothing');
      await writeFile(file, after);
    },
  };
}

export interface Run {
  code: number;
  out: string;
  err: string;
  /** Every request the apply sent, "METHOD /path". */
  requests: string[];
}

export async function apply(
  file: string,
  url: string,
  key: string,
  flags: { dryRun?: boolean; pruneAddons?: boolean; beforeRequest?: (request: Request) => Promise<void> } = {},
): Promise<Run> {
  let out = '';
  let err = '';
  const requests: string[] = [];
  const code = await runApply(
    {
      file,
      url,
      key,
      dryRun: flags.dryRun ?? false,
      pruneAddons: flags.pruneAddons ?? false,
      retries: 1,
      fetch: async (request) => {
        requests.push(`${request.method} ${new URL(request.url).pathname}`);
        await flags.beforeRequest?.(request);
        return fetch(request);
      },
    },
    (s) => {
      out += s;
    },
    (s) => {
      err += s;
    },
  );
  return { code, out, err, requests };
}

export const writes = (run: Run) => run.requests.filter((r) => !r.startsWith('GET '));
