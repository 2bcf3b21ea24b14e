import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Queryable } from '../../db/client.js';
import { q } from '../../db/query.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { type AssetUrlPrefixes, assetSrc } from './assets.js';
import type { AddonReader } from './public-read.js';
import type { AddonKind } from './state.js';
import { addonWrite } from './write.js';

/**
 * What every add-on service shares: its database, the URL prefixes its SQL embeds in asset
 * objects, and enabling (PUT {enabled}) answered with the whole document.
 */
export abstract class AddonService<D extends { enabled: boolean }> implements AddonReader<D> {
  abstract readonly kind: AddonKind;
  protected readonly srcPrefix: AssetUrlPrefixes;

  constructor(
    protected readonly db: Database,
    config: Pick<Config, 'publicUrl'>,
    storage: Pick<BlobStore, 'publicUrl'>,
  ) {
    this.srcPrefix = { original: assetSrc(config, storage, ''), files: `${config.publicUrl}/files/` };
  }

  abstract empty(): D;
  /** The document, its version (moves with anything it shows) and its edit version (moves with writes to it only). */
  abstract build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: D; version: number; editVersion: number }>;

  enable(organizationId: string, estateId: string, enabled: boolean): Promise<D> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => (await this.build(tx, organizationId, estateId)).doc, enabled);
  }
}

/**
 * The root of an add-on's one-statement document: its state row, or none (off, version 0), with
 * `enabled`, `version` and `editVersion` selected; the caller selects the children next to them.
 */
export function addonDocument(db: Queryable, organizationId: string, estateId: string, kind: AddonKind) {
  return q(db)
    .selectFrom(sql`(SELECT 1)`.as('one'))
    .leftJoin('addonStates as st', (join) => join.on('st.organizationId', '=', organizationId).on('st.estateId', '=', estateId).on('st.kind', '=', kind))
    .select((eb) => [
      eb.fn.coalesce('st.enabled', sql.lit(false)).as('enabled'),
      eb.cast<number>(eb.fn.coalesce('st.version', sql.lit(0)), 'integer').as('version'),
      eb.cast<number>(eb.fn.coalesce('st.editVersion', sql.lit(0)), 'integer').as('editVersion'),
    ]);
}

/** A json_agg of children as their JSON array: `[]`, not null, when there are none. */
export const jsonList = <T>(agg: Expression<T[]>): RawBuilder<T[]> => sql<T[]>`coalesce(${agg}, '[]'::json)`;
