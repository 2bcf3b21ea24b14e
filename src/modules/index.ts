import type { FastifyInstance } from 'fastify';
import { addonRoutes } from './addons/routes.js';
import { apartmentRoutes } from './apartments/routes.js';
import { assetRoutes } from './assets/routes.js';
import { buildingRoutes } from './buildings/routes.js';
import { invitationAdminRoutes } from './dashboard/people/admin-routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { domainRoutes, tlsAskRoutes } from './domains/routes.js';
import { estateRoutes } from './estates/routes.js';
import { fileRoutes } from './files/routes.js';
import { healthRoutes } from './health/routes.js';
import { inquiryRoutes } from './inquiries/routes.js';
import { navigatorRoutes } from './navigators/routes.js';
import { adminRoutes, apiKeyRoutes } from './organizations/routes.js';
import { pageAssetRoutes } from './pages/routes/assets.js';
import { pageApiRoutes } from './pages/routes/settings.js';
import { pageSiteRoutes } from './pages/routes/site.js';
import { panoramaRoutes } from './panoramas/routes.js';
import { userRoutes } from './users/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/** Every route of the service; the shared tenancy suite reads the same table through app.routes. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(tlsAskRoutes);
  await app.register(fileRoutes);
  await app.register(pageAssetRoutes);
  await app.register(pageSiteRoutes);
  await app.register(dashboardRoutes, { prefix: '/dashboard' });
  await app.register(
    async (api) => {
      await api.register(adminRoutes);
      await api.register(estateRoutes);
      await api.register(navigatorRoutes);
      await api.register(buildingRoutes);
      await api.register(apartmentRoutes);
      await api.register(userRoutes);
      await api.register(invitationAdminRoutes);
      await api.register(inquiryRoutes);
      await api.register(panoramaRoutes);
      await api.register(assetRoutes);
      await api.register(addonRoutes);
      await api.register(pageApiRoutes);
      await api.register(webhookRoutes);
      await api.register(apiKeyRoutes);
      await api.register(domainRoutes);
    },
    { prefix: '/api/v1' },
  );
}
