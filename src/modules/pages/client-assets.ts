import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../paths.js';

/**
 * The public page's browser code and stylesheet, bundled by scripts/build-page-assets.mjs (esbuild, at
 * build time) into dist/page-assets/ under hashed names. The renderer asks `pageAssets()` for the URLs
 * to put in `<script type="module" src>` and `<link rel="stylesheet">`; routes/assets.ts serves the files.
 * Read once per process. When the folder is missing (tests or `npm run dev` before any build) it is
 * built here first, so a checkout never serves a page without its script.
 */
export const PAGE_ASSETS_PREFIX = '/assets/page/';

export interface AssetFile {
  name: string;
  type: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

export interface PageAssets {
  /** `/assets/page/page.<hash>.js`: the islands, an ES module. */
  script: string;
  /** `/assets/page/viewer.<hash>.js`: the 360° viewer, an ES module the page imports only when a viewer opens. */
  viewer: string;
  /** `/assets/page/page.<hash>.css`: page.css and the islands' rules. */
  style: string;
  /** Files served under PAGE_ASSETS_PREFIX, by file name. */
  files: Map<string, AssetFile>;
  /** The embed loader served at /embed.js. */
  embed: AssetFile;
}

export const PAGE_ASSETS_DIR = path.join(projectRoot, 'dist', 'page-assets');

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

let loaded: PageAssets | undefined;

function load(dir: string): PageAssets {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    // Built beside it and renamed into place: test processes starting together never see half a folder.
    const script = path.join(projectRoot, 'scripts', 'build-page-assets.mjs');
    const temporary = `${dir}.${process.pid}`;
    const built = existsSync(script)
      ? spawnSync(process.execPath, [script, '--out', temporary], { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, PAGE_ASSETS_QUIET: '1' } })
      : undefined;
    if (built?.status === 0) {
      try {
        renameSync(temporary, dir);
      } catch {
        rmSync(temporary, { recursive: true, force: true }); // another process put its build there first
      }
    }
    if (!existsSync(manifestPath)) {
      throw new Error(`The public page's assets are missing (${manifestPath}): run npm run build`);
    }
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Record<string, string> };
  const file = (name: string): AssetFile => {
    const identity = readFileSync(path.join(dir, name));
    return {
      name,
      type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      identity,
      br: readFileSync(path.join(dir, `${name}.br`)),
      gzip: readFileSync(path.join(dir, `${name}.gz`)),
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    };
  };
  const names = manifest.files;
  if (!names['page.js'] || !names['viewer.js'] || !names['page.css'] || !names['embed.js']) {
    throw new Error(`${manifestPath} lacks page.js, viewer.js, page.css or embed.js`);
  }
  const files = new Map<string, AssetFile>();
  for (const logical of ['page.js', 'viewer.js', 'page.css']) files.set(names[logical]!, file(names[logical]!));
  return {
    script: PAGE_ASSETS_PREFIX + names['page.js'],
    viewer: PAGE_ASSETS_PREFIX + names['viewer.js'],
    style: PAGE_ASSETS_PREFIX + names['page.css'],
    files,
    embed: file(names['embed.js']),
  };
}

export function pageAssets(): PageAssets {
  loaded ??= load(PAGE_ASSETS_DIR);
  return loaded;
}
