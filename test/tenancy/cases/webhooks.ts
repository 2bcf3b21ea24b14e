import type { ModuleCases } from '../types.js';

/** A's endpoint points at a port nobody listens on: attempts fail quietly, which these cases do not look at. */
const URL = 'http://127.0.0.1:9/hook';

export const webhookCases: ModuleCases = {
  async prepare(w) {
    const res = await w.t.request({ method: 'POST', url: '/api/v1/webhooks', key: w.a.key, body: { url: URL, events: ['estate.updated'] } });
    if (res.statusCode !== 201) throw new Error(`webhook create failed: ${res.statusCode} ${res.body}`);
    w.ids.webhook = res.json().id;
    const estate = await w.t.request({ method: 'POST', url: '/api/v1/estate', key: w.a.key, body: { name: 'Webhook tenancy estate' } });
    await w.t.request({ method: 'PATCH', url: `/api/v1/estate/${estate.json().id}`, key: w.a.key, body: { description: 'emits one event' } });
    const rows = await w.t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [w.ids.webhook]);
    if (!rows[0]) throw new Error('no delivery was queued');
    w.ids.webhookDelivery = rows[0].id;
  },
  routes: {
    'POST /api/v1/webhooks': { foreign: 'isolated', request: () => ({ url: '/api/v1/webhooks', body: { url: URL, events: ['*'] } }) },
    'GET /api/v1/webhooks': { foreign: 'isolated', request: () => ({ url: '/api/v1/webhooks' }) },
    'GET /api/v1/webhooks/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/webhooks/${w.ids.webhook}` }) },
    'PATCH /api/v1/webhooks/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/webhooks/${w.ids.webhook}`, body: { description: 'changed' } }) },
    'DELETE /api/v1/webhooks/:id': {
      foreign: 404,
      request: async (w) => {
        const res = await w.t.request({ method: 'POST', url: '/api/v1/webhooks', key: w.a.key, body: { url: URL, events: ['*'] } });
        return { url: `/api/v1/webhooks/${res.json().id}` };
      },
    },
    'POST /api/v1/webhooks/:id/rotate-secret': { foreign: 404, request: (w) => ({ url: `/api/v1/webhooks/${w.ids.webhook}/rotate-secret` }) },
    'GET /api/v1/webhooks/:id/deliveries': { foreign: 404, request: (w) => ({ url: `/api/v1/webhooks/${w.ids.webhook}/deliveries` }) },
    'POST /api/v1/webhooks/:id/deliveries/:deliveryId/retry': {
      foreign: 404,
      request: (w) => ({ url: `/api/v1/webhooks/${w.ids.webhook}/deliveries/${w.ids.webhookDelivery}/retry` }),
    },
  },
};
