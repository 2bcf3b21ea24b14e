import { readFileSync } from 'node:fs';
import { type PageAsset, currentAsset, registerPageAsset } from '../pages/assets.js';

/**
 * The dashboard's stylesheet, read next to this module (src/ under tsx, dist/ after the build copies
 * it), hashed once and served with the page's files under /p/_assets/ (immutable).
 */
export function dashboardStylesheet(): PageAsset {
  const existing = currentAsset('dashboard.css');
  if (existing) return existing;
  const text = readFileSync(new URL('./dashboard.css', import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\n\s*/g, '')
    .trim();
  return registerPageAsset('dashboard', 'css', 'text/css; charset=utf-8', Buffer.from(text));
}

/**
 * The dashboard's two small islands in one plain script (no build step): the upload progress of the
 * assets screen and drag ordering of the add-ons screen. Every form they enhance works without it.
 */
export function islandScript(): PageAsset {
  const existing = currentAsset('dashboard-islands.js');
  if (existing) return existing;
  const bytes = readFileSync(new URL('./islands.js', import.meta.url));
  return registerPageAsset('dashboard-islands', 'js', 'text/javascript; charset=utf-8', bytes);
}
