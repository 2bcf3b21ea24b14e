// Bundles the shape editor island (src/modules/shape-editor/client/) with the dashboard's shapes screen's
// stylesheet (src/modules/dashboard/screens/shapes.css) with esbuild into dist/editor-assets/:
//   shape-editor.js         the island, an ES module that mounts every [data-module="shape-editor"] root
//   shape-editor-import.js  the SVG import (saxes, svgpath), an ES module the island imports on first use
//   shape-editor.css  the island's rules and the screen's (the read-only view without JavaScript)
// src/modules/dashboard/screens/shapes-assets.ts reads both, hashes them and serves them under /p/_assets/
// (immutable) with the dashboard's stylesheet; only the shapes screen links them.
// Run by scripts/build-if-stale.mjs after tsc (so by `npm run build`, `npm ci`'s prepare and `npm start`).
// Usage: node scripts/build-editor-assets.mjs [--out DIR]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(root, 'dist', 'editor-assets');
const client = path.join(root, 'src', 'modules', 'shape-editor', 'client');
const screenCss = path.join(root, 'src', 'modules', 'dashboard', 'screens', 'shapes.css');

// The page's targets (scripts/build-page-assets.mjs).
const target = ['es2020', 'chrome90', 'firefox90', 'safari15'];
const common = { bundle: true, minify: true, write: false, legalComments: 'none', target, logLevel: 'warning' };

const [script, importer, style] = await Promise.all([
  build({
    ...common,
    stdin: { contents: "import { initShapeEditors } from './shape-editor.client.ts';\ninitShapeEditors();\n", resolveDir: client, loader: 'ts' },
    format: 'esm',
    outfile: path.join(out, 'shape-editor.js'),
  }),
  build({
    ...common,
    entryPoints: [path.join(client, 'svg-import.entry.ts')],
    format: 'esm',
    outfile: path.join(out, 'shape-editor-import.js'),
  }),
  build({
    ...common,
    stdin: { contents: `@import "./shape-editor.css";\n@import ${JSON.stringify(screenCss)};\n`, resolveDir: client, loader: 'css' },
    outfile: path.join(out, 'shape-editor.css'),
  }),
]);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of [...script.outputFiles, ...importer.outputFiles, ...style.outputFiles])
  writeFileSync(path.join(out, path.basename(file.path)), file.contents);
