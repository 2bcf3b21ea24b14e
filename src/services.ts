import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from './app.js';
import { FreshStatistics } from './db/fresh-statistics.js';
import { CacheStore, type Caching } from './db/read-cache.js';
import { createAddonServices } from './modules/addons/services.js';
import { ApartmentsService } from './modules/apartments/service.js';
import { ImageProcessor } from './modules/assets/images/processor.js';
import { AssetsService } from './modules/assets/service.js';
import { BuildingsService } from './modules/buildings/service.js';
import { PeopleService } from './modules/dashboard/people/service.js';
import { DomainsService } from './modules/domains/service.js';
import { EstatesService } from './modules/estates/service.js';
import { InquiriesService } from './modules/inquiries/service.js';
import { NavigatorsService } from './modules/navigators/service.js';
import { OrganizationsService } from './modules/organizations/service.js';
import { PagesService } from './modules/pages/service/pages.js';
import { PanoramasService } from './modules/panoramas/service.js';
import { UsersService } from './modules/users/service.js';
import { WebhooksService } from './modules/webhooks/service.js';

export type Services = ReturnType<typeof createServices>;

/** One instance of each service per app, wired with the app's database and storage. */
export function createServices(deps: Pick<AppDeps, 'db' | 'storage' | 'config' | 'imageJobs'>, log: FastifyBaseLogger) {
  // Every kept answer of the app, in one store bounded in bytes (CACHE_MAX_MB; src/db/read-cache.ts).
  const caching: Caching = { store: new CacheStore(deps.config.cache.maxBytes), ttlMs: deps.config.cache.ttlMs };
  const images = new ImageProcessor(deps.db, deps.storage, log, { background: deps.imageJobs !== 'on-demand' });
  const estates = new EstatesService(deps.db);
  const navigators = new NavigatorsService(deps.db, deps.config, deps.storage, caching);
  // ANALYZE after bulk writes (issue 38): closed with the app (src/app.ts).
  const statistics = new FreshStatistics(deps.db, log);
  const apartments = new ApartmentsService(deps.db, caching, statistics);
  const assets = new AssetsService(deps.db, deps.storage, deps.config, images);
  const addons = createAddonServices(deps, caching);
  const domains = new DomainsService(deps.db, deps.config, log);
  const panoramas = new PanoramasService(deps.db);
  return {
    caching,
    statistics,
    organizations: new OrganizationsService(deps.db, caching.store, log),
    users: new UsersService(deps.db),
    people: new PeopleService(deps.db, deps.config),
    inquiries: new InquiriesService(deps.db),
    panoramas,
    estates,
    buildings: new BuildingsService(deps.db),
    apartments,
    navigators,
    assets,
    addons,
    pages: new PagesService({
      db: deps.db,
      config: deps.config,
      storage: deps.storage,
      caching,
      estates,
      navigators,
      apartments,
      assets,
      addons,
      panoramas,
      domains: domains.directory,
    }),
    webhooks: new WebhooksService(deps.db, deps.config),
    domains,
  };
}
