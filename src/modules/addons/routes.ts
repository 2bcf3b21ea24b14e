import type { FastifyPluginAsync } from 'fastify';
import { galleryRoutes } from './gallery/routes.js';

/** Routes of the four add-ons, under /api/v1/estates/{estateId}/... */
export const addonRoutes: FastifyPluginAsync = async (app) => {
  await app.register(galleryRoutes);
};
