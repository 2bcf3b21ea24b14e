import { createProject } from '../../helpers/factories.js';
import type { ModuleCases } from '../types.js';

let n = 0;

/** The personal data no answer to a publishable key may contain (test/integration/tenancy.test.ts scans for them). */
export const PROSPECT_EMAIL = 'prospect.tenancy@example.com';
export const PROSPECT_PHONE = '+48 600 123 987';

export const inquiryCases: ModuleCases = {
  async prepare(w) {
    const { estate, apartment } = await createProject(w.t, w.a.key);
    w.ids.inquiryEstate = estate.id;
    w.ids.inquiryApartment = apartment.id;
    const submitted = await w.t.request({
      method: 'POST',
      url: `/api/v1/estates/${estate.id}/inquiries`,
      body: { name: 'Tenancy Prospect', email: PROSPECT_EMAIL, phoneNumber: PROSPECT_PHONE, apartmentIds: [apartment.id] },
    });
    if (submitted.statusCode !== 201) throw new Error(`inquiry submit failed: ${submitted.statusCode} ${submitted.body}`);
    w.ids.inquiry = (submitted.json() as { id: string }).id;
  },
  routes: {
    // Public: anyone (any key, or none) may submit; B's key gets only its own receipt, never A's data.
    'POST /api/v1/estates/:estateId/inquiries': {
      foreign: 'isolated',
      request: (w) => ({
        url: `/api/v1/estates/${w.ids.inquiryEstate}/inquiries`,
        body: { name: `Prospect ${++n}`, email: `p${n}@example.com` },
      }),
    },
    'GET /api/v1/inquiry': { foreign: 'isolated', request: () => ({ url: '/api/v1/inquiry' }) },
    'GET /api/v1/inquiry/changes': { foreign: 'isolated', request: () => ({ url: '/api/v1/inquiry/changes' }) },
    'PATCH /api/v1/inquiry/:id': { foreign: 404, request: (w) => ({ url: `/api/v1/inquiry/${w.ids.inquiry}`, body: { status: 'IN_PROGRESS' } }) },
    'GET /api/v1/apartment/:id/inquiries': { foreign: 404, request: (w) => ({ url: `/api/v1/apartment/${w.ids.inquiryApartment}/inquiries` }) },
  },
};
