import type { ModuleCases } from '../types.js';
import { addonCases } from './addons.js';
import { assetCases } from './assets.js';
import { domainCases } from './domains.js';
import { foundationCases } from './foundation.js';
import { inquiryCases } from './inquiries.js';
import { navigatorCases } from './navigators.js';
import { pageCases } from './pages.js';
import { panoramaCases } from './panoramas.js';
import { webhookCases } from './webhooks.js';

/** One entry per module; a module adds its file here and every route it registers needs a case. */
export const MODULE_CASES: ModuleCases[] = [
  foundationCases,
  assetCases,
  addonCases,
  inquiryCases,
  panoramaCases,
  webhookCases,
  navigatorCases,
  pageCases,
  domainCases,
];
