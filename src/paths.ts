import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + start);
    dir = parent;
  }
  return dir;
}

/** The folder holding package.json and migrations/, whether run from src/ (tsx) or dist/. */
export const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
