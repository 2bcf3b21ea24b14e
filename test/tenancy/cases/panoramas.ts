import { ADMIN_TOKEN } from '../../helpers/app.js';
import { createProject } from '../../helpers/factories.js';
import type { ModuleCases } from '../types.js';

export const panoramaCases: ModuleCases = {
  async prepare(w) {
    const { apartment } = await createProject(w.t, w.a.key);
    w.ids.panoramaApartment = apartment.id;
    const panorama = await w.t.request({
      method: 'POST',
      url: `/api/v1/admin/apartments/${apartment.id}/panoramas`,
      key: ADMIN_TOKEN,
      body: { name: 'Living room', src: 'https://cdn.example.com/p/1.jpg' },
    });
    if (panorama.statusCode !== 201) throw new Error(`panorama create failed: ${panorama.statusCode} ${panorama.body}`);
    w.ids.panorama = (panorama.json() as { id: string }).id;
  },
  routes: {
    'GET /api/v1/apartment/:id/panoramas': { foreign: 404, request: (w) => ({ url: `/api/v1/apartment/${w.ids.panoramaApartment}/panoramas` }) },
  },
};
