import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CompressibleBody } from '../../http/compression.js';

/** A static file of the page, served under a name holding its hash, cached for a year (immutable). */
export interface PageAsset {
  name: string;
  href: string;
  type: string;
  body: CompressibleBody;
  etag: string;
}

/** Where hashed page files are served: not a slug (slugs are lowercase words joined by hyphens). */
export const ASSET_PREFIX = '/p/_assets/';

const assets = new Map<string, PageAsset>();

/**
 * Adds a file under `{stem}.{hash}.{ext}` and returns it; the browser code's bundle registers itself
 * the same way (name `page.js`). The hash is of the bytes, so a changed file is a new URL.
 */
export function registerPageAsset(stem: string, ext: string, type: string, bytes: Buffer): PageAsset {
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 12).replace(/[-_]/g, 'x');
  const name = `${stem}.${hash}.${ext}`;
  const asset = { name, href: `${ASSET_PREFIX}${name}`, type, body: new CompressibleBody(bytes), etag: `"${hash}"` };
  assets.set(name, asset);
  byStem.set(`${stem}.${ext}`, asset);
  return asset;
}

const byStem = new Map<string, PageAsset>();

export const pageAsset = (name: string): PageAsset | undefined => assets.get(name);
/** The current file registered as `{stem}.{ext}` (page.css, page.js). */
export const currentAsset = (stemAndExt: string): PageAsset | undefined => byStem.get(stemAndExt);

/**
 * The stylesheet, read next to this module (src/ under tsx, dist/ after the build copies it) and
 * hashed once at start; its comments and line breaks removed (no build step needed for 4 KB).
 */
export function loadStylesheet(): PageAsset {
  const existing = byStem.get('page.css');
  if (existing) return existing;
  const text = readFileSync(new URL('./page.css', import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\n+/g, '')
    .trim();
  return registerPageAsset('page', 'css', 'text/css; charset=utf-8', Buffer.from(text));
}
