import { createEstate } from '../../helpers/factories.js';
import type { ModuleCases } from '../types.js';

const D = '/api/v1/estates/:estateId/domains';

/** The estate of A's hostnames; verify's record is set on the suite's DNS server (w.dns). */
let estateId = '';
let counter = 0;

export const domainCases: ModuleCases = {
  async prepare(w) {
    estateId = (await createEstate(w.t, w.a.key)).id;
    w.ids.domainEstate = estateId;
  },
  routes: {
    [`GET ${D}`]: { foreign: 404, request: () => ({ url: `/api/v1/estates/${estateId}/domains` }) },
    [`POST ${D}`]: { foreign: 404, request: () => ({ url: `/api/v1/estates/${estateId}/domains`, body: { hostname: `t${++counter}.tenancy.example` } }) },
    [`POST ${D}/:hostname/verify`]: {
      foreign: 404,
      request: async (w) => {
        const hostname = `v${++counter}.tenancy.example`;
        const added = await w.t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/domains`, key: w.a.key, body: { hostname } });
        const { txtName, txtValue } = (added.json() as { verification: { txtName: string; txtValue: string } }).verification;
        await w.dns.setTxt(txtName, txtValue);
        return { url: `/api/v1/estates/${estateId}/domains/${hostname}/verify` };
      },
    },
    [`DELETE ${D}/:hostname`]: {
      foreign: 404,
      request: async (w) => {
        const hostname = `d${++counter}.tenancy.example`;
        await w.t.request({ method: 'POST', url: `/api/v1/estates/${estateId}/domains`, key: w.a.key, body: { hostname } });
        return { url: `/api/v1/estates/${estateId}/domains/${hostname}` };
      },
    },
  },
};
