import type { Static } from '@sinclair/typebox';
import type { Database } from '../../db/client.js';
import { type Caching, ReadCache, followingWrites } from '../../db/read-cache.js';
import { badRequest, forbidden } from '../../errors.js';
import { canonical } from '../../http/canonical-json.js';
import { CompressibleBody } from '../../http/compression.js';
import { bytesEtag } from '../../http/etag.js';
import { isUuid } from '../../ids.js';
import { type ApartmentFilter, apartmentsRepository as repo } from './repository.js';
import type { ListApartmentsQuery } from './schemas.js';

/** NOTIFY channel of migrations 0010/0016: apartments and buildings changed (the payload names the organization). */
export const APARTMENT_CHANNEL = 'apartment_documents_changed';
/**
 * Each organization's filtered lists (and lists of nothing) are kept apart, at most this many and bytes
 * per organization and kind of key, so a visitor's `?q=`, price or paging variants displace only each
 * other (docs/decisions.md, Caches).
 */
export const LIST_VARIANTS = { maxEntries: 64, maxBytes: 8 * 1024 * 1024 };
/** The query properties of a list "as it is" (kept with the plain answers): anything else makes it a variant. */
const PLAIN_QUERY = new Set(['buildingId', 'estateId', 'organizationId', 'sort']);

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
 * apartment documents by id, through the organization's write generation and notifications, plus
 * CACHE_TTL_MS on PostgreSQL for other instances' inserts), with their ETag and their compressed forms,
 * so a list read again while nothing changed costs no statement, no hashing and no compression. A list of
 * an estate or building as it is (no filter, no window) is kept with the plain answers; every other
 * query, and a list of nothing, among its organization's variants (LIST_VARIANTS).
 */
export class ApartmentLists {
  readonly cache: ReadCache<ListedApartments>;

  constructor(
    private readonly db: Database,
    caching: Caching,
  ) {
    this.cache = new ReadCache<ListedApartments>({
      ...followingWrites(db, caching, true),
      channels: [APARTMENT_CHANNEL],
      weigh: (listed) => listed.body.weight,
      variants: LIST_VARIANTS,
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
    const plain = Object.keys(query).every((name) => PLAIN_QUERY.has(name));
    return (await this.cache.read(key, load, {
      scope: organizationId,
      variants: `${organizationId} ${publishable ? 'public' : 'key'}`,
      plain: (listed) => plain && listed.total > 0,
    }))!;
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
