import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account.js';
import { addonScreen } from './addons.js';
import { apartmentScreen } from './apartments.js';
import { apiKeyScreen } from './api-keys.js';
import { assetScreen } from './assets.js';
import { domainScreen } from './domains.js';
import { estateScreen } from './estates.js';
import { inquiryScreen } from './inquiries.js';
import { memberRoutes } from './members.js';
import { navigatorScreen } from './navigators.js';
import { pageScreen } from './page.js';
import { allScreens, registerScreen } from './registry.js';
import { shapesScreen } from './shapes.js';
import { webhookScreen } from './webhooks.js';

// The navigation's order. Later screens (assets, add-ons, navigators, the page, API keys, webhooks,
// domains) are added here.
registerScreen({ id: 'estates', label: 'Estates', path: 'estates', minimum: 'viewer', routes: estateScreen });
registerScreen({ id: 'apartments', label: 'Apartments', path: 'apartments', minimum: 'viewer', routes: apartmentScreen });
registerScreen({ id: 'assets', label: 'Assets', path: 'assets', minimum: 'viewer', routes: assetScreen });
registerScreen({ id: 'addons', label: 'Add-ons', path: 'addons', minimum: 'viewer', routes: addonScreen });
registerScreen({ id: 'inquiries', label: 'Inquiries', path: 'inquiries', minimum: 'viewer', routes: inquiryScreen });
registerScreen({ id: 'shapes', label: 'Shapes', path: 'shapes', minimum: 'viewer', routes: shapesScreen });
registerScreen({ id: 'navigators', label: 'Navigators', path: 'navigators', minimum: 'viewer', routes: navigatorScreen });
registerScreen({ id: 'page', label: 'Page', path: 'page', minimum: 'viewer', routes: pageScreen });
registerScreen({ id: 'members', label: 'Members', path: 'members', minimum: 'admin', routes: memberRoutes });
registerScreen({ id: 'domains', label: 'Domains', path: 'domains', minimum: 'admin', routes: domainScreen });
registerScreen({ id: 'api-keys', label: 'API keys', path: 'api-keys', minimum: 'admin', routes: apiKeyScreen });
registerScreen({ id: 'webhooks', label: 'Webhooks', path: 'webhooks', minimum: 'admin', routes: webhookScreen });
registerScreen({ id: 'account', label: 'Your account', path: 'account', minimum: 'viewer', routes: accountRoutes });

/** Every screen of an organization, under /dashboard/o/:orgId. */
export async function orgScreens(app: FastifyInstance): Promise<void> {
  for (const screen of allScreens()) await app.register(screen.routes);
}
