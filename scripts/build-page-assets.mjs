// Bundles the public page's browser code (the entry src/modules/pages/client/page.ts and the islands it imports
// from src/modules/pages/components/*/) and its stylesheet (src/modules/pages/page.css, when present, then
// client/islands.css) with esbuild into dist/page-assets/:
//   page.<hash>.js, page.<hash>.css  hashed names (SHA-256 of the content), served immutable under /assets/page/
//   viewer.<hash>.js                  the 360° viewer (components/panoramas/viewer.client.ts), imported by page.js only when a viewer opens
//   embed.js                          the embed loader, served at /embed.js (a fixed URL, short cache)
//   *.br, *.gz                        each file compressed once here (brotli 11, gzip 9), not per request
//   manifest.json                     { files: { "page.js": "page.<hash>.js", … }, bytes: { … } }
// src/modules/pages/client-assets.ts reads the manifest; the renderer asks it for the hashed URLs.
// Run by scripts/build-if-stale.mjs after tsc (so by `npm run build`, `npm ci`'s prepare and `npm start`).
// Usage: node scripts/build-page-assets.mjs [--out DIR]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(root, 'dist', 'page-assets');
const client = path.join(root, 'src', 'modules', 'pages', 'client');
const css = path.join(root, 'src', 'modules', 'pages', 'page.css');

// Browsers with native <dialog>, ES modules, ResizeObserver and optional chaining (2020 onwards).
const target = ['es2020', 'chrome90', 'firefox90', 'safari15'];
const common = { bundle: true, minify: true, write: false, legalComments: 'none', target, logLevel: 'warning' };

// The stylesheet: the renderer's page.css (page-server's) then the islands' own rules (client/islands.css).
const cssEntry = [existsSync(css) ? '@import "../page.css";' : '', '@import "./islands.css";'].join('\n');
const [page, viewer, embed, style] = await Promise.all([
  build({ ...common, entryPoints: [path.join(client, 'page.ts')], format: 'esm', outfile: path.join(out, 'page.js') }),
  build({
    ...common,
    entryPoints: [path.join(root, 'src', 'modules', 'pages', 'components', 'panoramas', 'viewer.client.ts')],
    format: 'esm',
    outfile: path.join(out, 'viewer.js'),
  }),
  build({ ...common, entryPoints: [path.join(client, 'embed.ts')], format: 'iife', outfile: path.join(out, 'embed.js') }),
  build({ ...common, stdin: { contents: cssEntry, resolveDir: client, loader: 'css' }, outfile: path.join(out, 'page.css') }),
]);
// Hashed names (the content's SHA-256) for what is served immutable; embed.js keeps its fixed URL.
const outputs = [
  [page, true],
  [viewer, true],
  [embed, false],
  [style, true],
];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const files = {};
const bytes = {};
for (const [result, hashed] of outputs) {
  for (const file of result.outputFiles) {
    const logical = path.basename(file.path);
    const identity = Buffer.from(file.contents);
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 10).replace(/[-_]/g, 'x');
    const name = hashed ? logical.replace(/\.(\w+)$/, `.${hash}.$1`) : logical;
    files[logical] = name;
    const br = brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
    const gz = gzipSync(identity, { level: 9 });
    writeFileSync(path.join(out, name), identity);
    writeFileSync(path.join(out, `${name}.br`), br);
    writeFileSync(path.join(out, `${name}.gz`), gz);
    bytes[logical] = { identity: identity.length, br: br.length, gzip: gz.length };
  }
}
writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify({ files, bytes }, null, 2)}\n`);
if (process.env.PAGE_ASSETS_QUIET !== '1') {
  const list = Object.entries(files).map(([logical, name]) => `${name} (${bytes[logical].identity} B, ${bytes[logical].br} B br)`);
  process.stderr.write(`estate-publisher: page assets ${list.join(', ')}\n`);
}
