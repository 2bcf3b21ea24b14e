import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../src/db/client.js';
import { newId } from '../../src/ids.js';

export interface AssetRowOptions {
  mimeType?: string;
  sizeBytes?: number;
  name?: string;
  /** An image's size as its variant job would have read it (navigator frames need one). */
  width?: number;
  height?: number;
}

/**
 * A real row in `assets` with the mime type and size a test needs (a 60 MB video cannot go through
 * the 20 MB upload). No file is written: add-ons only read the row.
 */
export async function insertAssetRow(db: Database, organizationId: string, options: AssetRowOptions = {}): Promise<{ id: string; storageKey: string }> {
  const id = newId();
  const storageKey = `${organizationId}/${id}`;
  await db.query(
    `INSERT INTO assets (id, organization_id, name, storage_key, mime_type, size_bytes, sha256, width, height)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      organizationId,
      options.name ?? `file-${id.slice(-6)}`,
      storageKey,
      options.mimeType ?? 'image/jpeg',
      options.sizeBytes ?? 1024,
      createHash('sha256').update(randomBytes(8)).digest('hex'),
      options.width ?? null,
      options.height ?? null,
    ],
  );
  return { id, storageKey };
}
