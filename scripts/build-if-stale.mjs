// Compiles src/ to dist/ (and bundles the page's browser code to dist/page-assets/) only when a source file (or the TypeScript configuration) is newer than the
// last successful build, so `npm start` and `npm run cli` start in a fraction of a second after
// `npm ci` (whose `prepare` step builds) and still never run stale code after an edit.
// Usage: node scripts/build-if-stale.mjs [--force]
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

function newest(entry) {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs; // a deleted or renamed file changes its directory
  for (const name of readdirSync(entry)) max = Math.max(max, newest(path.join(entry, name)));
  return max;
}

const sources = Math.max(
  newest(path.join(root, 'src')),
  newest(path.join(root, 'clients', 'typescript', 'src')),
  newest(path.join(root, 'tsconfig.json')),
  newest(path.join(root, 'tsconfig.build.json')),
);
let built = 0;
try {
  built = statSync(stamp).mtimeMs;
} catch {
  // never built
}
if (!process.argv.includes('--force') && built >= sources) process.exit(0);

process.stderr.write('estate-publisher: compiling TypeScript (src/ changed since the last build)\n');
const started = Date.now();
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  if (result.error) process.stderr.write(`estate-publisher: could not run the TypeScript compiler: ${result.error.message}\n`);
  process.exit(result.status ?? 1);
}
// The public page's browser code and stylesheet (esbuild; dist/page-assets/).
const assets = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-page-assets.mjs')], { cwd: root, stdio: 'inherit' });
if (assets.status !== 0) {
  if (assets.error) process.stderr.write(`estate-publisher: could not bundle the page assets: ${assets.error.message}\n`);
  process.exit(assets.status ?? 1);
}
// The dashboard's shape editor island and its stylesheet (esbuild; dist/editor-assets/).
const editor = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-editor-assets.mjs')], { cwd: root, stdio: 'inherit' });
if (editor.status !== 0) {
  if (editor.error) process.stderr.write(`estate-publisher: could not bundle the shape editor: ${editor.error.message}\n`);
  process.exit(editor.status ?? 1);
}
// Files the TypeScript compiler does not copy: the dashboard's stylesheet and islands (src/modules/dashboard/assets.ts reads them next to its module).
for (const file of ['src/modules/dashboard/dashboard.css', 'src/modules/dashboard/islands.js'])
  copyFileSync(path.join(root, file), path.join(root, 'dist', file));
// Stamped with the start time: a source saved while tsc ran is newer, so the next start builds again.
writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
utimesSync(stamp, new Date(started), new Date(started));
process.stderr.write(`estate-publisher: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
