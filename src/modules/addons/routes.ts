import type { FastifyPluginAsync } from 'fastify';
import { downloadsRoutes } from './downloads/routes.js';
import { galleryRoutes } from './gallery/routes.js';
import { investmentRoutes } from './investment/routes.js';
import { mapRoutes } from './map/routes.js';

/** Routes of the four add-ons, under /api/v1/estates/{estateId}/... */
export const addonRoutes: FastifyPluginAsync = async (app) => {
  const cache = app.services.addons.publicCache;
  app.addHook('onClose', async () => cache.dispose());

  await app.register(investmentRoutes);
  await app.register(galleryRoutes);
  await app.register(mapRoutes);
  await app.register(downloadsRoutes);
};
