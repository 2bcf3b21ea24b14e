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
