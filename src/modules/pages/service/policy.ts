import { createHash } from 'node:crypto';
import type { Config } from '../../../config.js';
import type { BlobStore } from '../../../storage/blob-store.js';
import { assetSrc } from '../../assets/src-url.js';
import type { Navigator } from '../../navigators/schemas.js';
import { normaliseColour } from '../../navigators/theme.js';
import type { PageData } from '../render/types.js';

/** The theme's custom properties as one CSS rule; each colour parsed again (never the stored text as it is). */
export function themeCss(navigator: Navigator | null): string {
  const theme = (navigator?.options.customTheme ?? {}) as Record<string, string | undefined>;
  const declarations: string[] = [];
  for (const [name, value] of Object.entries(theme)) {
    if (name === 'fontFamily') continue;
    if (!/^--[a-z-]+$/.test(name) || typeof value !== 'string') continue;
    const colour = normaliseColour(value);
    if (colour) declarations.push(`${name}:${colour}`);
  }
  // minimalSidebarWidthPercent: the sidebar's least share of the width beside the render (page.css).
  const sidebar = navigator?.options.minimalSidebarWidthPercent;
  if (typeof sidebar === 'number' && sidebar > 0) declarations.push(`--sidebar-min:${Math.min(Math.round(sidebar * 10) / 10, 60)}%`);
  const font = theme.fontFamily;
  if (typeof font === 'string' && /^[a-z-]+$/.test(font)) declarations.push(`--font:${font}`);
  return declarations.length > 0 ? `:root{${declarations.join(';')}}` : '';
}

/** The tile server's origin for img-src (`{s}` subdomains as a wildcard), or undefined. */
function tileOrigin(template: string): string | undefined {
  try {
    const wildcard = template.includes('{s}.');
    const url = new URL(template.replace('{s}.', '').replace(/\{[a-z]\}/g, '0'));
    if (url.protocol !== 'https:') return undefined;
    return `https://${wildcard ? '*.' : ''}${url.host}`;
  } catch {
    return undefined;
  }
}

const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** img-src of every page: its own origin, PUBLIC_URL (the /files/ route) and the store's public URL (S3_PUBLIC_URL) when it serves the files. */
export function ownImageOrigins(config: Pick<Config, 'publicUrl'>, storage: Pick<BlobStore, 'publicUrl'>): string[] {
  const files = [origin(config.publicUrl), origin(assetSrc(config, storage, ''))];
  return [...new Set(["'self'", 'data:', ...files.filter((o): o is string => o !== undefined)])];
}

/** img-src of one page: `own`, the map's tile server, and the origins of `moreImages` (a home's panoramas). */
export function imageOriginsOf(own: string[], data: PageData, moreImages: string[]): string[] {
  const images = new Set(own);
  const tiles = data.map?.tiles ? tileOrigin(data.map.tiles.urlTemplate) : undefined;
  if (tiles) images.add(tiles);
  for (const src of moreImages) {
    // A plain host only: a URL's host may hold `*` or `'`, which a policy would read as a wildcard or a keyword.
    const found = origin(src);
    if (found && /^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(found)) images.add(found);
  }
  return [...images];
}

/** frame-ancestors: the page itself and the estate's embedOrigins, or anyone when it names none. */
export const ancestorsOf = (embedOrigins: string[]) => (embedOrigins.length > 0 ? ["'self'", ...embedOrigins] : ['*']);

/** The page's Content-Security-Policy: no inline script, the theme's <style> by its hash, nothing else inline. */
export function baseCsp(images: string[], theme: string, ancestors: string[]): string {
  const styles = ["'self'"];
  if (theme) styles.push(`'sha256-${createHash('sha256').update(theme).digest('base64')}'`);
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styles.join(' ')}`,
    `img-src ${images.join(' ')}`,
    "connect-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors.join(' ')}`,
  ].join('; ');
}
