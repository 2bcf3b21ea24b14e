import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendCompressible } from '../../http/compression.js';
import { ASSET_PREFIX } from '../pages/assets.js';
import { PAGE_ASSETS_PREFIX } from '../pages/client-assets.js';
import { localeOfAcceptLanguage } from '../pages/shared/words.js';
import type { DomainDirectory } from './directory.js';

/** The estate a request on one of its verified hostnames was routed to. */
export interface Site {
  hostname: string;
  estateId: string;
  organizationId: string;
  slug: string;
}

const SITE = Symbol('site');
type Marked = IncomingMessage & { [SITE]?: Site | 'unknown' };

/** The custom hostname a request came in on, with its estate; undefined on the service's own host. */
export function siteOf(request: FastifyRequest): Site | undefined {
  const site = (request.raw as Marked)[SITE];
  return typeof site === 'object' ? site : undefined;
}

/** Answered on every host: a load balancer's probe may name any. */
const ANY_HOST = new Set(['/health', '/health/ready']);
/** The page's static files: served as they are on a custom host too (its HTML links them relatively). */
const STATIC_PREFIXES = [PAGE_ASSETS_PREFIX, ASSET_PREFIX];
const STATIC_FILES = new Set(['/embed.js', '/favicon.ico']);

/** The Host header's name: lower case, without port or trailing dot ('' when absent). */
export function hostOf(header: string | undefined): string {
  if (!header) return '';
  const value = header.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  return value.replace(/:\d*$/, '').replace(/\.$/, '');
}

/**
 * Host routing (issue 37), as a layer before the router: the page, its form and everything else under
 * /p/{slug} stay as they are, and a request whose Host is a verified hostname is rewritten to its estate's
 * /p/{slug} (`/` to /p/{slug}, `/inquiry` to /p/{slug}/inquiry, `/homes/…` to /p/{slug}/homes/…; the page's
 * static files and /p/{slug}… itself, which embed.js frames, unchanged). The service's own host is
 * PUBLIC_URL's hostname, any single label (`localhost`, a container's name) and any IP address (the proxy's
 * and probes' requests); an unknown host
 * gets the 404 page for everything but /health. On a custom host the API, /docs, /files and every other
 * path of the service's own host are the 404 page, since they are rewritten under the estate's page.
 */
export function installSiteRouting(app: FastifyInstance, directory: DomainDirectory, ownHost: string): (req: IncomingMessage) => string {
  // A single label (localhost, a container's or service's name) or an IP address can never be a custom
  // hostname: they are how proxies, probes and development reach the service.
  const own = (host: string) => host === ownHost || !host.includes('.') || isIP(host) !== 0;
  const notFound = (reply: FastifyReply) => {
    const page = app.services.pages.notFound(localeOfAcceptLanguage(reply.request.headers['accept-language']));
    reply.header('content-security-policy', page.csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    // Answered before a body was read: the connection is not kept for the rest of it (a stalled body
    // would otherwise hold it past REQUEST_TIMEOUT_MS).
    if (!reply.request.raw.complete) reply.header('connection', 'close');
    return sendCompressible(reply.code(404), page.body, 'text/html; charset=utf-8');
  };

  app.addHook('onRequest', async (request, reply) => {
    const site = (request.raw as Marked)[SITE];
    if (site === undefined) return;
    if (site === 'unknown') return notFound(reply);
    if (directory.stale(site.organizationId)) {
      // The organization wrote since the hostnames were read (its slug may be new): read them again, and
      // follow the estate to its current slug.
      await directory.reload();
      const fresh = directory.get(site.hostname);
      if (!fresh) return notFound(reply);
      const params = request.params as { slug?: string } | undefined;
      if (fresh.slug !== site.slug && params?.slug?.toLowerCase() === site.slug) params.slug = fresh.slug;
      site.slug = fresh.slug;
    }
    if (request.is404) return notFound(reply);
  });

  return (req: Marked) => {
    const url = req.url ?? '/';
    const host = hostOf(req.headers.host);
    if (own(host)) return url;
    const at = url.indexOf('?');
    const path = at === -1 ? url : url.slice(0, at);
    if (ANY_HOST.has(path)) return url;
    const site = directory.get(host);
    if (!site) {
      req[SITE] = 'unknown';
      return url;
    }
    req[SITE] = { hostname: site.hostname, estateId: site.estateId, organizationId: site.organizationId, slug: site.slug };
    if (STATIC_FILES.has(path) || STATIC_PREFIXES.some((prefix) => path.startsWith(prefix))) return url;
    const page = `/p/${site.slug}`;
    const lower = path.toLowerCase();
    if (lower === page || lower.startsWith(`${page}/`)) return url;
    return `${page}${path === '/' ? '' : path}${at === -1 ? '' : url.slice(at)}`;
  };
}
