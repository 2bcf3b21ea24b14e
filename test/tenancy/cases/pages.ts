import { createEstate } from '../../helpers/factories.js';
import type { ModuleCases } from '../types.js';

const P = '/api/v1/estates/:estateId/page';

/**
 * The estate these cases configure. Kept out of w.ids on purpose: GET of the settings echoes the
 * estateId of its own URL, which is not a leak (the 'isolated' check scans answers for w.ids).
 * The page stays off (the PUT case sends enabled: false), so B reads the defaults.
 */
let estateId = '';

export const pageCases: ModuleCases = {
  async prepare(w) {
    estateId = (await createEstate(w.t, w.a.key)).id;
  },
  routes: {
    [`GET ${P}`]: { foreign: 'isolated', request: () => ({ url: `/api/v1/estates/${estateId}/page` }) },
    [`PUT ${P}`]: { foreign: 404, request: () => ({ url: `/api/v1/estates/${estateId}/page`, body: { enabled: false, locale: 'en-GB' } }) },
    [`POST ${P}/preview`]: { foreign: 404, request: () => ({ url: `/api/v1/estates/${estateId}/page/preview` }) },
    [`DELETE ${P}/previews`]: { foreign: 404, request: () => ({ url: `/api/v1/estates/${estateId}/page/previews` }) },
  },
};
