import { ADMIN_TOKEN } from '../helpers/app.js';
import type { CaseRequest, World } from '../tenancy/types.js';

let n = 0;

/** A key of A issued by the operator, for the revoke case (each call revokes its own). */
async function operatorKey(w: World): Promise<string> {
  const res = await w.t.request({ method: 'POST', url: `/api/v1/admin/organizations/${w.a.id}/api-keys`, key: ADMIN_TOKEN, body: { scopes: ['read'] } });
  if (res.statusCode !== 201) throw new Error(`issuing a key failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

/**
 * A valid request for each operation of the document outside the tenancy suite (which covers the partner
 * and public routes): the operator surface, health and files. Keyed like the tenancy cases.
 */
export const OUTSIDE_CASES: Record<string, (w: World) => CaseRequest | Promise<CaseRequest>> = {
  'GET /health': () => ({ url: '/health' }),
  'GET /health/ready': () => ({ url: '/health/ready' }),
  // The TLS ask: the service's own host (PUBLIC_URL's, localhost here) is always allowed.
  'GET /internal/tls/allowed': () => ({ url: '/internal/tls/allowed?domain=localhost' }),
  'GET /files/:organizationId/:assetId': (w) => ({ url: `/files/${w.a.id}/${w.ids.asset}` }),
  'POST /api/v1/admin/organizations': () => ({ url: '/api/v1/admin/organizations', body: { name: `Prism operator org ${++n}` } }),
  'GET /api/v1/admin/organizations': () => ({ url: '/api/v1/admin/organizations?limit=5' }),
  'POST /api/v1/admin/organizations/:id/api-keys': (w) => ({
    url: `/api/v1/admin/organizations/${w.a.id}/api-keys`,
    body: { name: 'prism', scopes: ['read'] },
  }),
  'DELETE /api/v1/admin/api-keys/:keyId': async (w) => ({ url: `/api/v1/admin/api-keys/${await operatorKey(w)}` }),
  'PATCH /api/v1/admin/estates/:id': (w) => ({ url: `/api/v1/admin/estates/${w.ids.estate}`, body: { isPreview: true, subscriptionStatus: 'ACTIVE' } }),
  'POST /api/v1/admin/organizations/:id/users': (w) => ({
    url: `/api/v1/admin/organizations/${w.a.id}/users`,
    body: { email: `prism-${++n}-${Date.now()}@example.com`, firstName: 'Prism' },
  }),
  // The dashboard's operator invitation (issue 35): the answer holds the single-use link.
  'POST /api/v1/admin/organizations/:id/invitations': (w) => ({
    url: `/api/v1/admin/organizations/${w.a.id}/invitations`,
    body: { email: `prism-invitee-${++n}-${Date.now()}@example.com`, role: 'editor' },
  }),
  'POST /api/v1/admin/apartments/:id/panoramas': (w) => ({
    url: `/api/v1/admin/apartments/${w.ids.apartment}/panoramas`,
    body: { name: `Prism panorama ${++n}`, src: 'https://tours.example.com/p.jpg' },
  }),
};
