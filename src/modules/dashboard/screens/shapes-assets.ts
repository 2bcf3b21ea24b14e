import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../paths.js';
import { type PageAsset, currentAsset, registerPageAsset } from '../../pages/assets.js';

/**
 * The shape editor island, its SVG import and its stylesheet, bundled by scripts/build-editor-assets.mjs (esbuild, at
 * build time) into dist/editor-assets/, hashed here and served with the dashboard's stylesheet under
 * /p/_assets/ (immutable). Only the shapes screen links them. When the folder is missing, or older than
 * the island's sources (tests, `npm run dev` after an edit), it is built first, beside it and renamed
 * into place, so processes starting together never read half a folder.
 */
export const EDITOR_ASSETS_DIR = path.join(projectRoot, 'dist', 'editor-assets');

const SOURCES = [path.join(projectRoot, 'src', 'modules', 'shape-editor'), path.join(projectRoot, 'src', 'modules', 'dashboard', 'screens', 'shapes.css')];
const FILES = ['shape-editor.js', 'shape-editor-import.js', 'shape-editor.css'];

function newest(entry: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const name of readdirSync(entry)) max = Math.max(max, newest(path.join(entry, name)));
  return max;
}

function builtAt(dir: string): number {
  try {
    return Math.min(...FILES.map((f) => statSync(path.join(dir, f)).mtimeMs));
  } catch {
    return 0;
  }
}

function read(dir: string): Buffer[] {
  return FILES.map((f) => readFileSync(path.join(dir, f)));
}

function load(): Buffer[] {
  const built = builtAt(EDITOR_ASSETS_DIR);
  const script = path.join(projectRoot, 'scripts', 'build-editor-assets.mjs');
  const stale = built === 0 || Math.max(...SOURCES.map(newest)) > built;
  if (stale && existsSync(script) && existsSync(SOURCES[0]!)) {
    const temporary = `${EDITOR_ASSETS_DIR}.${process.pid}`;
    const result = spawnSync(process.execPath, [script, '--out', temporary], { cwd: projectRoot, stdio: 'inherit' });
    if (result.status === 0) {
      const bytes = read(temporary);
      try {
        rmSync(EDITOR_ASSETS_DIR, { recursive: true, force: true });
        renameSync(temporary, EDITOR_ASSETS_DIR);
      } catch {
        // another process put its build there first
      }
      rmSync(temporary, { recursive: true, force: true });
      return bytes;
    }
  }
  if (built === 0 && builtAt(EDITOR_ASSETS_DIR) === 0) throw new Error(`The shape editor's assets are missing (${EDITOR_ASSETS_DIR}): run npm run build`);
  return read(EDITOR_ASSETS_DIR);
}

/**
 * The island's script, its SVG import (a script of its own the island loads when "Import SVG" is used)
 * and its stylesheet as served files (read and hashed once per process).
 */
export function editorAssets(): { script: PageAsset; importer: PageAsset; style: PageAsset } {
  const script = currentAsset('shape-editor.js');
  const importer = currentAsset('shape-editor-import.js');
  const style = currentAsset('shape-editor.css');
  if (script && importer && style) return { script, importer, style };
  const [js, importJs, css] = load() as [Buffer, Buffer, Buffer];
  return {
    script: registerPageAsset('shape-editor', 'js', 'text/javascript; charset=utf-8', js),
    importer: registerPageAsset('shape-editor-import', 'js', 'text/javascript; charset=utf-8', importJs),
    style: registerPageAsset('shape-editor', 'css', 'text/css; charset=utf-8', css),
  };
}
