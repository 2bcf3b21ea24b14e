import { type Selectable, expressionBuilder, sql } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import type { Assets } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import type { Variant } from '../assets/schemas.js';

const ADDON_ASSET_COLUMNS = ['id', 'name', 'mimeType', 'sizeBytes'] as const;
/** What the add-on checks read of an asset. */
export type AddonAssetRow = Pick<Selectable<Assets>, (typeof ADDON_ASSET_COLUMNS)[number]>;

export { assetSrc } from '../assets/src-url.js';

/**
 * What add-on SQL puts before a storage key: `original` for the file (the store's public URL or the
 * service's /files/), `files` for variants, which the service always serves (it makes a missing one).
 */
export interface AssetUrlPrefixes {
  original: string;
  files: string;
}

/** The asset's variants (`a.variants`, in their stored order) as the API's objects, with their URLs. */
function variantsJson(filesPrefix: string) {
  return sql<Variant[]>`(SELECT coalesce(json_agg(json_build_object(
      'width', v->'width', 'height', v->'height', 'mimeType', 'image/webp',
      'src', ${filesPrefix}::text || a.storage_key || '-w' || (v->>'width'), 'sizeBytes', v->'sizeBytes') ORDER BY n), '[]'::json)
    FROM jsonb_array_elements(a.variants) WITH ORDINALITY AS x(v, n))`;
}

/**
 * The embedded `asset` object, for queries that join the asset as `a`. Its rules: `src` is the
 * public URL, the src prefix followed by the storage key; variant URLs follow variantKey (images/variant-keys.ts).
 */
export function assetJson(prefixes: AssetUrlPrefixes) {
  const eb = expressionBuilder<{ a: Assets }, 'a'>();
  return jsonBuildObject({
    id: eb.ref('a.id'),
    name: eb.ref('a.name'),
    src: eb(eb.cast<string>(eb.val(prefixes.original), 'text'), '||', eb.ref('a.storageKey')),
    mimeType: eb.ref('a.mimeType'),
    sizeBytes: eb.ref('a.sizeBytes'),
    width: eb.ref('a.width'),
    height: eb.ref('a.height'),
    variants: variantsJson(prefixes.files),
    placeholder: eb.ref('a.placeholder'),
  });
}

/** An asset of the organization, or the 404 every other organization's asset gets too. */
export async function requireAddonAsset(db: Queryable, organizationId: string, assetId: string): Promise<AddonAssetRow> {
  const row = isUuid(assetId)
    ? await q(db).selectFrom('assets').select(ADDON_ASSET_COLUMNS).where('organizationId', '=', organizationId).where('id', '=', assetId).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Asset', assetId);
  return row;
}

const base = (mime: string) => mime.split(';')[0]!.trim().toLowerCase();

export function requireGalleryMedia(asset: AddonAssetRow): void {
  const mime = base(asset.mimeType);
  if (!mime.startsWith('image/') && !mime.startsWith('video/')) {
    throw badRequest(`Asset ${asset.id} is ${asset.mimeType}; the gallery accepts image and video assets only`);
  }
}

export function requireImage(asset: AddonAssetRow, field: string): void {
  if (!base(asset.mimeType).startsWith('image/')) {
    throw badRequest(`${field}: asset ${asset.id} is ${asset.mimeType}; an image asset is required`);
  }
}

/** 50 MiB: the investment file limit (spec "50 MB"). */
export const INVESTMENT_MAX_BYTES = 50 * 1024 * 1024;

/** Accepted investment kinds beyond image/* and video/*: documents, archives and CAD (see docs/decisions.md). */
export const INVESTMENT_MIME_TYPES = new Set([
  // documents
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
  'text/rtf',
  'text/plain',
  'text/csv',
  // archives
  'application/zip',
  'application/x-zip-compressed',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-tar',
  'application/gzip',
  'application/x-gzip',
  'application/x-bzip2',
  'application/x-xz',
  // CAD and BIM
  'image/vnd.dwg',
  'image/x-dwg',
  'application/acad',
  'application/x-acad',
  'application/x-autocad',
  'application/dwg',
  'image/vnd.dxf',
  'image/x-dxf',
  'application/dxf',
  'application/x-dxf',
  'application/x-step',
  'model/step',
  'model/iges',
  'application/iges',
  'model/ifc',
  'application/x-ifc',
  'application/vnd.sketchup.skp',
  'application/x-koan',
  'application/vnd.autodesk.revit',
  'model/stl',
  'model/obj',
  'model/gltf-binary',
  'model/gltf+json',
]);

export function requireInvestmentFile(asset: AddonAssetRow): void {
  const mime = base(asset.mimeType);
  const accepted = mime.startsWith('image/') || mime.startsWith('video/') || INVESTMENT_MIME_TYPES.has(mime);
  if (!accepted) {
    throw badRequest(`Asset ${asset.id} is ${asset.mimeType}; investment files must be documents, images, video, archives or CAD files`);
  }
  if (asset.sizeBytes > INVESTMENT_MAX_BYTES) {
    throw badRequest(`Asset ${asset.id} is ${asset.sizeBytes} bytes; investment files must be at most 50 MB (${INVESTMENT_MAX_BYTES} bytes)`);
  }
}
