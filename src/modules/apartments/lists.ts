import type { Static } from '@sinclair/typebox';
import type { Database } from '../../db/client.js';
import { ReadCache } from '../../db/read-cache.js';
import { badRequest, forbidden } from '../../errors.js';
import { canonical } from '../../http/canonical-json.js';
import { CompressibleBody } from '../../http/compression.js';
import { bytesEtag } from '../../http/etag.js';
import { isUuid } from '../../ids.js';
import { type ApartmentFilter, apartmentsRepository as repo } from './repository.js';
import type { ListApartmentsQuery } from './schemas.js';

/**
 * On PostgreSQL, the longest a kept list is used: other instances' inserts are not notified (a NOTIFY
 * in every create's transaction serialises the commits of all creates; docs/decisions.md, Lists), so a
 * new apartment created through another instance shows in this instance's lists within this time.
 */
export const LIST_TTL_MS = 1_000;
/** Lists kept at most, and the bytes they may hold together (identity and kept encodings). */
const LIST_ENTRIES = 1_000;
const LIST_MAX_BYTES = 64 * 1024 * 1024;

/** A list answer as JSON text (built by the database) and the window it covers (X-Total-Count and Link). */
export interface ListedApartments {
  total: number;
  offset: number;
  limit: number | null;
  /** The JSON as the database wrote it, with its encodings once made (src/http/compression.ts). */
  body: CompressibleBody;
  /** Strong ETag of the identity bytes. */
  etag: string;
}

const emptyList = (offset: number, limit: number | null): ListedApartments => {
  const body = new CompressibleBody(Buffer.from(JSON.stringify({ count: 0, items: [] })));
  return { total: 0, offset, limit, body, etag: bytesEtag(body.identity) };
};

/**
 * GET /apartment: the answers are kept by organization and query (src/db/read-cache.ts: as true as the
 * apartment documents by id, through the same write generation and notifications, plus LIST_TTL_MS on
 * PostgreSQL for other instances' inserts), with their ETag and their compressed forms, so a list read
 * again while nothing changed costs no statement, no hashing and no compression.
 */
export class ApartmentLists {
  readonly cache: ReadCache<ListedApartments>;

  constructor(private readonly db: Database) {
    this.cache = new ReadCache<ListedApartments>(db, 'apartment_documents_changed', {
      maxEntries: LIST_ENTRIES,
      weigh: (listed) => listed.body.weight,
      maxWeight: LIST_MAX_BYTES,
      ttlMs: LIST_TTL_MS,
    });
  }

  /**
   * The list answer `{count, items}` (see apartmentsRepository.listJson) with the page it is for.
   * `publishable`: the caller is a publishable key, which never sees external ids or hidden prices: the
   * statement masks its documents (as publicView would) and its lists are kept apart.
   */
  async list(organizationId: string, query: Static<typeof ListApartmentsQuery>, publishable = false): Promise<ListedApartments> {
    if (publishable && query.externalId !== undefined) {
      throw forbidden('externalId is not a filter for a publishable key: it never sees external ids');
    }
    if (query.organizationId !== undefined && query.organizationId.toLowerCase() !== organizationId) {
      throw forbidden('organizationId names another organization; a key only lists its own apartments');
    }
    if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
      throw badRequest(`Validation failed: minPrice (${query.minPrice}) must not be greater than maxPrice (${query.maxPrice})`);
    }
    const offset = query.offset ?? 0;
    const limit = query.limit ?? null;
    if ((query.buildingId !== undefined && !isUuid(query.buildingId)) || (query.estateId !== undefined && !isUuid(query.estateId))) {
      return emptyList(offset, limit);
    }
    const load = async () => {
      const { total, body } = await repo.listJson(this.db, organizationId, this.filter(query, publishable));
      return { total, offset, limit, body: new CompressibleBody(body), etag: bytesEtag(body) };
    };
    // Ids in filters are compared lower-case by the database: one entry whatever their case.
    const key = `${organizationId} ${publishable ? 'public' : 'key'} ${canonical({ ...query, buildingId: query.buildingId?.toLowerCase(), estateId: query.estateId?.toLowerCase() })}`;
    return (await this.cache.read(key, load))!;
  }

  private filter(query: Static<typeof ListApartmentsQuery>, publishable: boolean): ApartmentFilter {
    const { buildingId, estateId, status, apartmentType, minPrice, maxPrice, rooms, floor, externalId, q } = query;
    const given = { buildingId, estateId, minPrice, maxPrice, rooms, floor, externalId, q };
    return {
      ...(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<ApartmentFilter>),
      ...(status !== undefined ? { status: status.split(',') } : {}),
      ...(apartmentType !== undefined ? { apartmentType: apartmentType.split(',') } : {}),
      ...(publishable ? { publicPrices: true } : {}),
      sort: query.sort ?? 'createdAt',
      offset: query.offset ?? 0,
      limit: query.limit ?? null,
    };
  }
}
