import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { assetSrc } from './assets.js';
import type { AddonReader } from './public-read.js';
import type { AddonKind } from './state.js';
import { addonWrite } from './write.js';

/**
 * What every add-on service shares: its database, the `src` prefix its SQL embeds in asset
 * objects, and enabling (PUT {enabled}) answered with the whole document.
 */
export abstract class AddonService<D extends { enabled: boolean }> implements AddonReader<D> {
  abstract readonly kind: AddonKind;
  protected readonly srcPrefix: string;

  constructor(
    protected readonly db: Database,
    config: Pick<Config, 'publicUrl'>,
    storage: Pick<BlobStore, 'publicUrl'>,
  ) {
    this.srcPrefix = assetSrc(config, storage, '');
  }

  abstract empty(): D;
  abstract build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: D; version: number }>;

  enable(organizationId: string, estateId: string, enabled: boolean): Promise<D> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => (await this.build(tx, organizationId, estateId)).doc, enabled);
  }
}

/**
 * One child of an estate's add-on as its JSON document: `json` is the json_build_object over
 * `from` (aliased `alias`, asset joined as `a` where needed), whose SQL reads $1 organization,
 * $2 estate and $3 the src prefix; the id is $4.
 */
export async function childDocument<T>(
  db: Queryable,
  select: { json: string; from: string; alias: string },
  organizationId: string,
  estateId: string,
  id: string,
  srcPrefix: string,
): Promise<T | undefined> {
  const { json, from, alias } = select;
  const rows = await db.query<{ doc: T }>(
    `SELECT ${json} AS doc FROM ${from} WHERE ${alias}.organization_id = $1 AND ${alias}.estate_id = $2 AND ${alias}.id = $4`,
    [organizationId, estateId, srcPrefix, id],
  );
  return rows[0]?.doc;
}
