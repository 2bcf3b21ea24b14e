import { createHash } from 'node:crypto';
import { CompressibleBody } from '../../http/compression.js';

/**
 * A file hashed at start and served under a name holding its hash, cached for a year (immutable): the
 * dashboard's stylesheet and islands and the shape editor (routes/assets.ts serves them). The public
 * page's own files are built by esbuild instead (client-assets.ts).
 */
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

/** Adds a file under `{stem}.{hash}.{ext}` and returns it. The hash is of the bytes, so a changed file is a new URL. */
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
/** The current file registered as `{stem}.{ext}` (dashboard.css, shape-editor.js). */
export const currentAsset = (stemAndExt: string): PageAsset | undefined => byStem.get(stemAndExt);
