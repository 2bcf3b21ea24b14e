/**
 * Summarises the .cpuprofile files `node --cpu-prof` wrote into a directory, one per thread (the
 * server's main thread, and the PGlite worker when there is one): the functions with the most self
 * time, and the same time grouped by where the code lives (a package under node_modules, a file of
 * src/, Node's own internals). Shares are of the thread's busy time (idle excluded). What
 * docs/performance.md's profile tables are made of.
 *
 *   npx tsx bench/cpu-top.ts /tmp/prof/postgres [--top 25]
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const dir = positionals[0];
if (!dir) throw new Error('usage: bench/cpu-top.ts <directory of .cpuprofile files>');

/** Where a frame's code lives: `pkg:<name>`, `src/<file>`, `node:<internal>`, or the V8 pseudo-frames. */
function place(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg:${pkg[1]}`;
  const own = /\/(src|dist\/src)\/(.+)$/.exec(url);
  if (own) return `src/${own[2]!.replace(/\.js$/, '.ts')}`;
  if (url.startsWith('node:')) return url;
  return path.basename(url);
}

const top = Number(values.top);
const table = (title: string, m: Map<string, number>, busy: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * us) / busy).toFixed(1).padStart(5)}%  ${k}\n`);
  }
};

for (const file of (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile')).sort()) {
  const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfByFunction = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const us = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      return;
    }
    const where = place(url, functionName);
    const fn = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + us);
    selfByPlace.set(where, (selfByPlace.get(where) ?? 0) + us);
    busy += us;
  });
  // node --cpu-prof names files CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the main thread.
  const thread = file.split('.').at(-3) === '0' ? 'main thread' : `worker thread ${file.split('.').at(-3)}`;
  process.stdout.write(`\n== ${file} (${thread}): busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s\n`);
  table('Self time by place (% of busy)', selfByPlace, busy);
  table('Self time by function (% of busy)', selfByFunction, busy);
}
