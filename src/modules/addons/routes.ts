import type { FastifyPluginAsync } from 'fastify';
import { downloadsRoutes } from './downloads/routes.js';
import { galleryRoutes } from './gallery/routes.js';
import { investmentRoutes } from './investment/routes.js';
import { listenForAddonChanges } from './listener.js';
import { mapRoutes } from './map/routes.js';

/** Routes of the four add-ons, under /api/v1/estates/{estateId}/... */
export const addonRoutes: FastifyPluginAsync = async (app) => {
  const cache = app.services.addons.publicCache;
  // LISTEN needs a session: DATABASE_DIRECT_URL when DATABASE_URL is a transaction-pooling PgBouncer.
  const { databaseDirectUrl } = app.deps.config;
  if (app.deps.db.kind === 'postgres' && databaseDirectUrl) {
    let listener: { close(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      listener = listenForAddonChanges(databaseDirectUrl, cache, app.log, app.deps.db);
    });
    app.addHook('onClose', async () => {
      await listener?.close();
      cache.dispose();
    });
  } else app.addHook('onClose', async () => cache.dispose());

  await app.register(investmentRoutes);
  await app.register(galleryRoutes);
  await app.register(mapRoutes);
  await app.register(downloadsRoutes);
};
