import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Paging metadata of the offset/limit lists, in headers so that every list keeps the body the spec
 * gives it (estate and asset lists stay plain arrays): `X-Total-Count` is the number of matches over
 * all pages; `Link` (RFC 8288) has `rel="next"` while a page follows and `rel="prev"` after the first.
 * Link targets are path-absolute references (`</api/v1/apartment?…&offset=50&limit=50>`), resolved by
 * the client against the URL it called, so they stay right behind any proxy or host name.
 */
export const PAGE_HEADERS = {
  'X-Total-Count': { type: 'integer', description: 'Items matching the query over all pages' },
  Link: {
    type: 'string',
    description:
      'RFC 8288 links to the neighbouring pages, path-absolute (resolve against the URL called): rel="next" while more items follow, rel="prev" after the first page. Absent on a single page.',
  },
};

export interface PageWindow {
  total: number;
  offset: number;
  /** null: the rest of the matches from offset (the apartment list without limit). */
  limit: number | null;
}

// Everything but the unreserved and a few sub-delims is percent-encoded, so a Link value can never
// carry `>`, `,` or `;` of its own.
const PATH_SAFE = /[^A-Za-z0-9\-._~/%:@!$&'()*+=]/g;

function pageUrl(request: FastifyRequest, offset: number, limit: number | null): string {
  const at = request.url.indexOf('?');
  const path = (at < 0 ? request.url : request.url.slice(0, at)).replace(PATH_SAFE, (c) => encodeURIComponent(c));
  const params = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
  params.set('offset', String(offset));
  if (limit === null) params.delete('limit');
  else params.set('limit', String(limit));
  return `${path}?${params.toString()}`;
}

/** Sets X-Total-Count and, when there are neighbouring pages, Link. */
export function setPageHeaders(request: FastifyRequest, reply: FastifyReply, { total, offset, limit }: PageWindow): void {
  reply.header('x-total-count', String(total));
  const links: string[] = [];
  if (limit !== null && offset + limit < total) links.push(`<${pageUrl(request, offset + limit, limit)}>; rel="next"`);
  if (offset > 0) {
    // The page that ends where this one starts (or at the last match, for an offset past the end).
    const end = Math.min(offset, total);
    const start = Math.max(0, end - (limit ?? end));
    if (limit !== null) links.push(`<${pageUrl(request, start, limit)}>; rel="prev"`);
    else if (end > 0) links.push(`<${pageUrl(request, 0, end)}>; rel="prev"`);
  }
  if (links.length > 0) reply.header('link', links.join(', '));
}
