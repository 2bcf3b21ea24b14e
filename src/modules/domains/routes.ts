import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { requireAuth } from '../../http/auth.js';
import { errorResponses, partnerErrors } from '../../http/schemas.js';
import { hostnameKey } from './hostname.js';
import { CreateDomainBody, DomainParams, DomainSchema, EstateDomainsParams } from './schemas.js';

const tags = ['Domains'];
const security = [{ apiKey: [] }];

/** An estate's own hostnames (inside the /api/v1 prefix). */
export const domainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.domains;
  app.get(
    '/estates/:estateId/domains',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'List the estate’s own hostnames and their status',
        security,
        params: EstateDomainsParams,
        response: { 200: Type.Array(Type.Ref(DomainSchema)), ...partnerErrors() },
      },
    },
    async (request) => service.list(requireAuth(request).organizationId, request.params.estateId),
  );

  app.post(
    '/estates/:estateId/domains',
    {
      config: { auth: 'partner', idempotent: true },
      schema: {
        tags,
        summary: 'Connect a hostname to the estate’s page: pending, with the TXT record to create (409 when any estate has it)',
        description:
          'The hostname is stored as lower-case ASCII (an IDN as punycode). Refused (422, the reason named): not a hostname, a single label, an IP address, a public suffix alone (Public Suffix List), the service’s own host, longer than 253 characters. Point the hostname at the service (CNAME or A record), create the TXT record of `verification`, then verify.',
        security,
        params: EstateDomainsParams,
        body: CreateDomainBody,
        response: { 201: Type.Ref(DomainSchema), ...partnerErrors(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.add(requireAuth(request).organizationId, request.params.estateId, request.body)),
  );

  app.post(
    '/estates/:estateId/domains/:hostname/verify',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Look the TXT record up: verified, or 422 saying what DNS answered',
        description:
          'The lookup goes through the resolvers of DNS_SERVERS. Verified, the estate’s page is served at https://{hostname}/ and the hostname gets a certificate; a resolver that does not answer is 503.',
        security,
        params: DomainParams,
        response: { 200: Type.Ref(DomainSchema), ...partnerErrors(503) },
      },
    },
    async (request) => service.verify(requireAuth(request).organizationId, request.params.estateId, request.params.hostname),
  );

  app.delete(
    '/estates/:estateId/domains/:hostname',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        summary: 'Disconnect a hostname: no longer served, no new certificate',
        security,
        params: DomainParams,
        response: { 204: Type.Null(), ...partnerErrors() },
      },
    },
    async (request, reply) => {
      await service.remove(requireAuth(request).organizationId, request.params.estateId, request.params.hostname);
      return reply.code(204).send(null);
    },
  );
};

/**
 * GET /internal/tls/allowed?domain= for the reverse proxy's on-demand TLS (Caddy's `ask`): 200 for a
 * verified hostname and for the service's own host, 404 otherwise. Answered from the kept set (no
 * statement) and limited per instance to TLS_ASK_MAX answers a second (429 past it: Caddy then issues
 * nothing), since every TLS handshake of a name without a certificate asks.
 */
export const tlsAskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { directory, ownHost } = app.services.domains;
  const max = app.deps.config.domains.askMaxPerSecond;
  let second = 0;
  let answered = 0;
  app.get(
    '/internal/tls/allowed',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['Health'],
        summary: 'For the reverse proxy’s on-demand TLS: 200 when the service serves this hostname, 404 otherwise',
        querystring: Type.Object({ domain: Type.String({ maxLength: 1000 }) }),
        response: { 200: Type.Object({ domain: Type.String() }), ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) {
        second = now;
        answered = 0;
      }
      if (++answered > max) {
        throw new AppError('tooManyRequests', 'Too many certificate checks; retry in 1 s', { retryAfterSeconds: 1 });
      }
      // Caddy sends the SNI name as it is (lower-case ASCII): found without converting it.
      const given = request.query.domain.toLowerCase();
      if (given === ownHost || directory.get(given)) return { domain: given };
      const domain = hostnameKey(given);
      if (domain !== '' && (domain === ownHost || directory.get(domain))) return { domain };
      throw new AppError('notFound', 'No verified hostname of that name');
    },
  );
};
