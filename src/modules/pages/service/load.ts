import type { Database } from '../../../db/client.js';
import { orNothing } from '../../../errors.js';
import { publicView } from '../../../http/publishable.js';
import type { createAddonServices } from '../../addons/services.js';
import type { Apartment } from '../../apartments/schemas.js';
import type { ApartmentsService } from '../../apartments/service.js';
import type { AssetsService } from '../../assets/service.js';
import type { EstatesService } from '../../estates/service.js';
import type { Navigator } from '../../navigators/schemas.js';
import type { NavigatorsService } from '../../navigators/service.js';
import type { Asset, PageData } from '../render/types.js';
import type { PageRow } from '../repository.js';
import { fieldsOf } from './settings.js';

/** The services a page reads through, as a publishable key reads them. */
export interface PageSources {
  db: Database;
  estates: EstatesService;
  navigators: NavigatorsService;
  apartments: ApartmentsService;
  assets: AssetsService;
  addons: ReturnType<typeof createAddonServices>;
}

/** Everything the page shows, through the services, as a publishable key reads it. */
export async function loadPageData(deps: PageSources, row: PageRow): Promise<PageData> {
  const organizationId = row.organizationId;
  const estateId = row.estateId;
  const { addons, db } = deps;
  const [estate, navigator, listed, investment, gallery, map, downloads] = await Promise.all([
    deps.estates.get(organizationId, estateId),
    // An estate without a navigator shows none; a read that failed fails the page (never kept without it).
    deps.navigators
      .forPage(organizationId, estateId, row.navigatorId)
      .then(
        (doc) => doc.value,
        (err) => orNothing(err) ?? null,
      ),
    // Read even without the list sections: the navigator's shapes are coloured by the apartments' status.
    deps.apartments.lists.list(organizationId, { estateId, sort: 'name' }, true),
    addons.investment.build(db, organizationId, estateId),
    addons.gallery.build(db, organizationId, estateId),
    addons.map.build(db, organizationId, estateId),
    addons.downloads.build(db, organizationId, estateId),
  ]);
  const parsed = JSON.parse(listed.body.identity.toString()) as { items: Apartment[] };
  // The list statement masks already; publicView again so no path can bring a hidden price here.
  publicView(parsed);
  const apartments = parsed.items;
  return {
    estate: { id: estate.id, name: estate.name, description: estate.description, slug: estate.slug, buildings: estate.buildings },
    settings: fieldsOf(row),
    navigator: navigator as Navigator | null,
    apartments,
    assets: row.showApartments ? await apartmentAssets(deps.assets, organizationId, apartments) : new Map(),
    investment: investment.doc.enabled ? investment.doc : null,
    gallery: gallery.doc.enabled ? gallery.doc : null,
    map: map.doc.enabled ? map.doc : null,
    downloads: downloads.doc.enabled ? downloads.doc : null,
  };
}

/** The assets non-hidden apartments name, as the publishable asset list gives them (only what a page may show). */
async function apartmentAssets(assets: AssetsService, organizationId: string, apartments: Apartment[]): Promise<Map<string, Asset>> {
  const wanted = new Set(apartments.filter((a) => a.status !== 'HIDDEN').flatMap((a) => a.assetsIds.map((id) => id.toLowerCase())));
  const found = new Map<string, Asset>();
  if (wanted.size === 0) return found;
  const limit = 1_000;
  for (let offset = 0; found.size < wanted.size; offset += limit) {
    const page = await assets.list(organizationId, { offset, limit }, true);
    for (const asset of page.items) if (wanted.has(asset.id)) found.set(asset.id, asset);
    if (offset + limit >= page.total) break;
  }
  return found;
}
