import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { type Caching, ReadCache, type Stamp, followingWrites } from '../../db/read-cache.js';
import { notFound, orNothing, unprocessable } from '../../errors.js';
import { CompressibleBody } from '../../http/compression.js';
import { bytesEtag } from '../../http/etag.js';
import { publicView } from '../../http/publishable.js';
import { isUuid } from '../../ids.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { createAddonServices } from '../addons/services.js';
import { ADDON_CHANNEL, addonOfPayload } from '../addons/state.js';
import { APARTMENT_CHANNEL } from '../apartments/lists.js';
import type { Apartment } from '../apartments/schemas.js';
import type { ApartmentsService } from '../apartments/service.js';
import type { AssetsService } from '../assets/service.js';
import { assetSrc } from '../assets/src-url.js';
import { type EstatesService, requireEstate } from '../estates/service.js';
import type { Navigator } from '../navigators/schemas.js';
import { NAVIGATOR_CHANNEL, type NavigatorsService } from '../navigators/service.js';
import { normaliseColour } from '../navigators/theme.js';
import type { PanoramasService } from '../panoramas/service.js';
import { changesOf, emitEvent } from '../webhooks/events.js';
import { loadStylesheet } from './assets.js';
import { pageAssets } from './client-assets.js';
import { knownFrame } from './frames.js';
import { PREVIEW_TTL_MS, signPreview, verifyPreview } from './preview.js';
import { renderFrameOverlay, renderHomeCard, renderHomePage, renderNotFound, renderPage } from './render/index.js';
import { listsHomes } from './render/page.js';
import type { Asset, FormState, ListFilter, PageData, RenderContext } from './render/types.js';
import { PAGE_DEFAULTS, type PageFields, type PageRow, pagesRepository as repo } from './repository.js';
import type { PageContact, PageSettings, PutPageBody } from './schemas.js';
import { checkPageInput } from './settings.js';
import { type ViewerPanorama, viewerPanoramas } from './shared/panorama.js';
import { langOf, languageOf, translator } from './shared/words.js';

/** NOTIFY channel of migrations/0015 and 0016: page settings and estates. */
export const PAGES_CHANNEL = 'pages_changed';
/** The other channels whose tables a page shows (apartments and buildings, navigators and assets, add-ons). */
const PAGE_CHANNELS = [PAGES_CHANNEL, APARTMENT_CHANNEL, NAVIGATOR_CHANNEL, ADDON_CHANNEL];
/**
 * Each estate's variants of its page ("Ask about" a home, the thank-you state, the filters) are kept
 * apart, at most this many and bytes per estate, so a visitor's filter URLs displace only each other.
 */
export const PAGE_VARIANTS = { maxEntries: 32, maxBytes: 8 * 1024 * 1024 };

/** The organization a notification names: an add-on's payload is `<kind>:<estateId>:<organizationId>`, the others' the organization. */
const scopeOfPayload = (payload: string) => {
  const organizationId = payload.includes(':') ? addonOfPayload(payload).organizationId : payload;
  return organizationId && isUuid(organizationId) ? organizationId.toLowerCase() : undefined;
};

/** What a plain page was rendered from, kept with it: its variants are rendered from this without a statement. */
interface PageSource {
  row: PageRow;
  data: PageData;
  /** When the read of `data` began: a variant is as old as its data. */
  stamp: Stamp;
}

/** A rendered page as the route sends it. */
export interface RenderedPage {
  status: 200 | 404;
  body: CompressibleBody;
  etag: string;
  /** The Content-Security-Policy of this page (theme style hash, image origins, frame-ancestors). */
  csp: string;
  estateId: string | null;
  noindex: boolean;
  /** The apartments with details on this page: an "Ask about" of any other id is the plain page. */
  askable: Set<string>;
  /** The estate's organization (null for the 404 page): whose writes make the kept page stale. */
  organizationId: string | null;
  /** On a kept plain page: what it was rendered from. */
  source?: PageSource | undefined;
}

/** What the route asks for besides the slug. */
export interface PageRequest {
  preview?: string | undefined;
  filter: ListFilter;
  askAbout: string | null;
  /** The frame the address names (`?frame={id}`: a "View" link without JavaScript), shown with its shapes. */
  frame?: string | null | undefined;
  /** A form answer (422 with errors, or the thank-you state): rendered for this request, never kept. */
  form?: FormState | undefined;
  /**
   * The estate's own hostname the request came in on (issue 37; src/modules/domains/site.ts): the page is
   * rendered for it (links from `/`, canonical https://{hostname}/) and kept apart from /p/{slug}'s.
   */
  site?: { hostname: string; estateId: string } | undefined;
}

const fieldsOf = (row: PageRow | undefined): PageFields =>
  row
    ? {
        enabled: row.enabled,
        navigatorId: row.navigatorId,
        showApartments: row.showApartments,
        showInquiryForm: row.showInquiryForm,
        embedOrigins: row.embedOrigins,
        locale: row.locale,
        contact: row.contact,
        privacyPolicyUrl: row.privacyPolicyUrl,
      }
    : { ...PAGE_DEFAULTS, embedOrigins: [] };

/** A contact block as stored: its lines trimmed, empty ones left out, null when nothing is left. */
function contactOf(input: PageContact | null): PageContact | null {
  if (!input) return null;
  const out = Object.fromEntries(
    Object.entries(input)
      .map(([k, v]) => [k, v?.trim()])
      .filter(([, v]) => v),
  ) as PageContact;
  return Object.keys(out).length > 0 ? out : null;
}

/** The theme's custom properties as one CSS rule; each colour parsed again (never the stored text as it is). */
export function themeCss(navigator: Navigator | null): string {
  const theme = (navigator?.options.customTheme ?? {}) as Record<string, string | undefined>;
  const declarations: string[] = [];
  for (const [name, value] of Object.entries(theme)) {
    if (name === 'fontFamily') continue;
    if (!/^--[a-z-]+$/.test(name) || typeof value !== 'string') continue;
    const colour = normaliseColour(value);
    if (colour) declarations.push(`${name}:${colour}`);
  }
  // minimalSidebarWidthPercent: the sidebar's least share of the width beside the render (page.css).
  const sidebar = navigator?.options.minimalSidebarWidthPercent;
  if (typeof sidebar === 'number' && sidebar > 0) declarations.push(`--sidebar-min:${Math.min(Math.round(sidebar * 10) / 10, 60)}%`);
  const font = theme.fontFamily;
  if (typeof font === 'string' && /^[a-z-]+$/.test(font)) declarations.push(`--font:${font}`);
  return declarations.length > 0 ? `:root{${declarations.join(';')}}` : '';
}

/** The tile server's origin for img-src (`{s}` subdomains as a wildcard), or undefined. */
function tileOrigin(template: string): string | undefined {
  try {
    const wildcard = template.includes('{s}.');
    const url = new URL(template.replace('{s}.', '').replace(/\{[a-z]\}/g, '0'));
    if (url.protocol !== 'https:') return undefined;
    return `https://${wildcard ? '*.' : ''}${url.host}`;
  } catch {
    return undefined;
  }
}

const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

export interface PagesDeps {
  db: Database;
  config: Pick<Config, 'publicUrl'>;
  storage: Pick<BlobStore, 'publicUrl'>;
  caching: Caching;
  estates: EstatesService;
  navigators: NavigatorsService;
  apartments: ApartmentsService;
  assets: AssetsService;
  addons: ReturnType<typeof createAddonServices>;
  /** A home's panoramas, for its own page (read when that page is rendered, not with the estate's page). */
  panoramas: Pick<PanoramasService, 'listForApartment'>;
  /** An estate's canonical own hostname, when it has a verified one (issue 37). */
  domains?: { canonicalHost(estateId: string): string | undefined } | undefined;
}

/**
 * The public page (issue 27): its settings, and the page itself, rendered from what the services give
 * a publishable key (the apartment list masked in SQL and by publicView, the navigator, the enabled
 * add-ons), kept as HTML with its encodings and ETag (src/db/read-cache.ts): the plain page by slug, with
 * the organization as its scope (valid while that organization wrote nothing and, on PostgreSQL, no
 * notification of the channels above named it, and for at most CACHE_TTL_MS); its variants rendered from
 * the plain page's data and kept among the estate's variants (PAGE_VARIANTS).
 */
export class PagesService {
  readonly pages: ReadCache<RenderedPage>;
  private readonly db: Database;
  /** img-src: the page's own origin, PUBLIC_URL (the /files/ route) and the store's public URL (S3_PUBLIC_URL) when it serves the files. */
  private readonly imageOrigins: string[];

  constructor(private readonly deps: PagesDeps) {
    this.db = deps.db;
    this.pages = new ReadCache<RenderedPage>({
      ...followingWrites(deps.db, deps.caching, true),
      channels: PAGE_CHANNELS,
      scopeOfPayload,
      // The HTML with its encodings; a plain page also holds its data (about as large as its HTML).
      weigh: (page) => page.body.weight + (page.source ? page.body.identity.length : 0),
      variants: PAGE_VARIANTS,
    });
    const files = [origin(deps.config.publicUrl), origin(assetSrc(deps.config, deps.storage, ''))];
    this.imageOrigins = [...new Set(["'self'", 'data:', ...files.filter((o): o is string => o !== undefined)])];
  }

  /** One subscriber per channel a page depends on, all moving this cache (src/db/change-listener.ts). */
  subscribers() {
    return this.pages.subscribers();
  }

  private url(slug: string): string {
    return `${this.deps.config.publicUrl}/p/${slug}`;
  }

  /**
   * GET of the settings: the owner's key sees them as stored; anyone else sees them only while the page
   * is on (an estate's page that is off reads as the defaults, as an add-on that is off reads empty).
   */
  async settings(estateId: string, caller: string | undefined): Promise<{ settings: PageSettings; owner: boolean }> {
    const estate = isUuid(estateId) ? await repo.estateRef(this.db, estateId) : undefined;
    if (!estate) throw notFound('Estate', estateId);
    const row = await repo.ofEstate(this.db, estate.id);
    const owner = caller === estate.organizationId;
    const fields = row && (owner || row.enabled) ? fieldsOf(row) : fieldsOf(undefined);
    return { settings: { estateId: estate.id, ...fields, url: this.url(estate.slug) }, owner };
  }

  /** PUT: fields left out keep their value; navigatorId must be a navigator of the estate. */
  async put(organizationId: string, estateId: string, input: PutPageBody): Promise<PageSettings> {
    const checked = checkPageInput(input);
    // Checked before the transaction (the navigator read is not in it; on PGlite it would wait for it).
    // A navigator deleted meanwhile leaves navigatorId null (ON DELETE SET NULL): the estate's first.
    if (input.navigatorId) {
      const navigator = isUuid(input.navigatorId) ? await this.deps.navigators.get(organizationId, input.navigatorId).catch(orNothing) : undefined;
      if (!navigator || navigator.estateId !== estateId.toLowerCase()) {
        if (!isUuid(estateId)) throw notFound('Estate', estateId);
        throw unprocessable(`Validation failed: navigatorId must be a navigator of estate ${estateId}`);
      }
    }
    return this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      const current = fieldsOf(await repo.get(tx, organizationId, estate.id));
      const next: PageFields = {
        enabled: input.enabled ?? current.enabled,
        navigatorId: input.navigatorId === undefined ? current.navigatorId : (input.navigatorId?.toLowerCase() ?? null),
        showApartments: input.showApartments ?? current.showApartments,
        showInquiryForm: input.showInquiryForm ?? current.showInquiryForm,
        embedOrigins: checked.embedOrigins ?? current.embedOrigins,
        locale: checked.locale ?? current.locale,
        contact: input.contact === undefined ? current.contact : contactOf(input.contact),
        privacyPolicyUrl: input.privacyPolicyUrl === undefined ? current.privacyPolicyUrl : input.privacyPolicyUrl,
      };
      const row = await repo.upsert(tx, organizationId, estate.id, next);
      const settings = { estateId: estate.id, ...fieldsOf(row), url: this.url(estate.slug) };
      // What the page shows changed (on, off, sections, navigator, locale, who may frame it): a CDN purges
      // `estate-{estateId}`. A PUT that changes nothing emits nothing.
      await emitEvent(tx, organizationId, 'page.updated', settings, changesOf(current, fieldsOf(row)));
      return settings;
    });
  }

  /** A signed link that renders the page for PREVIEW_TTL_MS even while it is off. */
  async preview(organizationId: string, estateId: string): Promise<{ url: string; expiresAt: string }> {
    return this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      let row = await repo.get(tx, organizationId, estate.id);
      // The first preview of an estate never configured makes its row (off, defaults) and so its secret.
      row ??= await repo.upsert(tx, organizationId, estate.id, fieldsOf(undefined));
      const expires = Date.now() + PREVIEW_TTL_MS;
      return {
        url: `${this.url(estate.slug)}?preview=${signPreview(row.previewSecret, estate.id, expires, row.previewVersion)}`,
        expiresAt: new Date(expires).toISOString(),
      };
    });
  }

  /**
   * Ends every preview link of the estate issued so far: its preview version moves on, and links are
   * signed with the version they were issued under. An estate never previewed has no links (no row).
   */
  async revokePreviews(organizationId: string, estateId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      await repo.revokePreviews(tx, organizationId, estate.id);
    });
  }

  /** Where the no-JS form of `slug` posts to: an enabled page that shows the form, else undefined (404). */
  async inquiryTarget(slug: string): Promise<{ estateId: string; slug: string } | undefined> {
    if (!/^[a-z0-9-]{1,100}$/i.test(slug)) return undefined;
    const estate = await this.deps.estates.bySlug(slug).catch(orNothing);
    const row = estate && (await repo.ofEstate(this.db, estate.id));
    return estate && row?.enabled && row.showInquiryForm ? { estateId: estate.id, slug: estate.slug } : undefined;
  }

  /** The plain page of `slug` (kept), or undefined when there is none (off, unknown). */
  private async plainPage(slug: string, site?: PageRequest['site']): Promise<RenderedPage | undefined> {
    // A custom hostname's page is another page: its own key (and variants) in the same cache.
    const plain = await this.pages.read(pageKey(slug, site), () => this.build(slug, { filter: {}, askAbout: null, site }), {
      scopeOf: (page) => page.organizationId ?? undefined,
    });
    this.noteLocale(slug, plain?.source?.data.settings.locale);
    return plain?.source ? plain : undefined;
  }

  /** The locale of each published page read lately (bounded): the language of its notices (too many requests...). */
  private readonly locales = new Map<string, string>();
  private noteLocale(slug: string, locale: string | undefined): void {
    const key = slug.toLowerCase();
    if (locale === undefined) {
      this.locales.delete(key);
      return;
    }
    if (this.locales.get(key) === locale) return;
    this.locales.delete(key);
    if (this.locales.size >= 10_000) this.locales.delete(this.locales.keys().next().value!);
    this.locales.set(key, locale);
  }

  /**
   * The origins allowed to frame the published page `slug` ([] = any), or undefined when there is no
   * such page: what embed.js asks before it says a host is refused (the page's CSP says the same).
   */
  async embedOrigins(slug: string, site?: PageRequest['site']): Promise<string[] | undefined> {
    return (await this.plainPage(slug, site))?.source?.row.embedOrigins;
  }

  /** The locale of the published page `slug` as last read, or undefined (never read, off, unknown). */
  localeOf(slug: string): string | undefined {
    return this.locales.get(slug.toLowerCase());
  }

  /** The page's answer for `slug`: 200 with the page, or 404 (off, unknown, bad preview: one body). */
  async page(slug: string, request: PageRequest): Promise<RenderedPage> {
    const thanks = request.form?.sent === true;
    // Rendered per request, never kept: previews and form answers with errors.
    if (request.preview !== undefined || (request.form !== undefined && !thanks)) {
      return (await this.build(slug, request)) ?? this.notFound();
    }
    const lower = pageKey(slug, request.site);
    const plain = await this.plainPage(slug, request.site);
    if (!plain?.source) return this.notFound();
    const askAbout = request.askAbout !== null && plain.askable.has(request.askAbout) ? request.askAbout : null;
    const frame = knownFrame(plain.source.data, request.frame);
    if (askAbout === null && Object.keys(request.filter).length === 0 && !thanks && frame === null) return plain;
    // A variant ("Ask about" a home on the page, the thank-you state, a filter, a frame shown first): rendered
    // from the plain page's data (no statement) and kept among this estate's variants, as old as that data.
    const key = `${lower} ${askAbout ?? ''} ${thanks ? 'sent' : ''} ${JSON.stringify(request.filter)} ${frame ?? ''}`;
    return this.variant(plain, key, (row, data) =>
      this.render(row, data, false, {
        filter: request.filter,
        askAbout,
        form: thanks ? { values: {}, errors: {}, sent: true } : undefined,
        site: request.site,
        frame,
      }),
    );
  }

  /**
   * One frame's overlay with its shapes (`/p/{slug}?part=frame&frame={id}`: what the page's script fetches
   * when it shows a frame whose shapes the page left out), kept among the estate's variants like a home's
   * card; 404 for a frame the page does not show.
   */
  async frame(slug: string, frameId: string | null, site?: PageRequest['site']): Promise<RenderedPage> {
    const plain = await this.plainPage(slug, site);
    const frame = plain?.source ? knownFrame(plain.source.data, frameId) : null;
    if (!plain?.source || frame === null) return this.notFound();
    const key = `${pageKey(slug, site)} frame-part ${frame}`;
    return this.variant(plain, key, (row, data) =>
      this.render(row, data, false, { filter: {}, askAbout: null, site }, (d, ctx) => renderFrameOverlay(d, ctx, frame) ?? ''),
    );
  }

  /**
   * A home's own page, or its card alone (`part` card: what the page's script opens in place): 404 for
   * an id that is not a home the page lists (HIDDEN, another estate's, unknown, or the list is off).
   */
  async home(slug: string, apartmentId: string, part: 'page' | 'card', site?: PageRequest['site']): Promise<RenderedPage> {
    const plain = await this.plainPage(slug, site);
    const id = apartmentId.toLowerCase();
    if (!plain?.source || !isUuid(id) || !plain.askable.has(id)) return this.notFound();
    const key = `${pageKey(slug, site)} home ${id} ${part}`;
    // The page (not the card) shows the home's panoramas: read once, when the page is rendered and kept.
    const panoramas = part === 'page' && !this.kept(plain, key) ? await this.panoramasOf(plain, id) : [];
    return this.variant(plain, key, (row, data) => {
      const home = data.apartments.find((a) => a.id === id)!;
      return this.render(
        row,
        data,
        false,
        { filter: {}, askAbout: id, site },
        (d, ctx) => (part === 'card' ? renderHomeCard(d, ctx, home) : renderHomePage(d, ctx, home, panoramas)),
        panoramas.map((p) => p.src),
      );
    });
  }

  /** A home's panoramas as its page's viewer takes them (shared/panorama.ts), highest priority first. */
  private async panoramasOf(plain: RenderedPage, apartmentId: string): Promise<ViewerPanorama[]> {
    const organizationId = plain.organizationId;
    if (!organizationId) return [];
    return viewerPanoramas(await this.deps.panoramas.listForApartment(organizationId, apartmentId));
  }

  /** The kept variant `key` of a plain page, if any. */
  private kept(plain: RenderedPage, key: string): RenderedPage | undefined {
    return this.pages.get(key, { scope: plain.organizationId ?? undefined, variants: key.split(' ')[0]! });
  }

  /** A variant of a plain page, kept among its estate's variants and as old as the plain page's data. */
  private variant(plain: RenderedPage, key: string, make: (row: PageRow, data: PageData) => RenderedPage): RenderedPage {
    const place = { scope: plain.organizationId ?? undefined, variants: key.split(' ')[0]! };
    const kept = this.kept(plain, key);
    if (kept) return kept;
    const { row, data, stamp } = plain.source!;
    const made = make(row, data);
    this.pages.set(key, made, stamp, place);
    return made;
  }

  private readonly notFoundPages = new Map<string, RenderedPage>();

  /** The 404 page in the language of `locale` (one body per language: the same for an off page and an unknown slug). */
  notFound(locale = 'en'): RenderedPage {
    const language = languageOf(locale);
    let page = this.notFoundPages.get(language);
    if (!page) {
      const body = new CompressibleBody(Buffer.from(renderNotFound(loadStylesheet().href, translator(language), langOf(language))));
      page = {
        status: 404,
        body,
        etag: bytesEtag(body.identity),
        csp: baseCsp(["'self'"], '', ['*']),
        estateId: null,
        noindex: true,
        askable: new Set(),
        organizationId: null,
      };
      this.notFoundPages.set(language, page);
    }
    return page;
  }

  /** The page read now: undefined when it is off, unknown or a bad preview (404). */
  private async build(slug: string, request: PageRequest): Promise<RenderedPage | undefined> {
    if (!/^[a-z0-9-]{1,100}$/i.test(slug)) return undefined;
    const stamp = this.pages.stamp();
    const estateRef = await this.deps.estates.bySlug(slug).catch(orNothing);
    if (!estateRef) return undefined;
    // A hostname's routing may lag a slug given to another estate: never that estate's page on this host.
    if (request.site && request.site.estateId !== estateRef.id) return undefined;
    const row = await repo.ofEstate(this.db, estateRef.id);
    const preview = request.preview !== undefined && row !== undefined && verifyPreview(row.previewSecret, estateRef.id, request.preview, row.previewVersion);
    if (!row || (!row.enabled && !preview)) return undefined;
    if (request.preview !== undefined && !preview) return undefined;
    const data = await this.load(row);
    const page = this.render(row, data, preview, request);
    // Only a plain page is kept, with what it was rendered from.
    return request.preview === undefined && request.form === undefined ? { ...page, source: { row, data, stamp } } : page;
  }

  /** The page of `data` for one request: HTML, policy and ETag. */
  private render(
    row: PageRow,
    data: PageData,
    preview: boolean,
    request: Omit<PageRequest, 'preview'>,
    html: (data: PageData, ctx: RenderContext) => string = renderPage,
    /** Images the page shows besides the data's (a home's panoramas): their origins join img-src. */
    moreImages: string[] = [],
  ): RenderedPage {
    const theme = themeCss(data.navigator);
    // On its own hostname the page lives at `/`; on ours at /p/{slug}, naming the own hostname as canonical.
    const own = request.site?.hostname ?? this.deps.domains?.canonicalHost(row.estateId);
    const locale = data.settings.locale;
    const ctx: RenderContext = {
      publicUrl: request.site ? `https://${request.site.hostname}` : this.deps.config.publicUrl,
      path: request.site ? '' : `/p/${data.estate.slug}`,
      canonical: own ? `https://${own}/` : undefined,
      // The esbuild bundle (client-assets.ts): page.css with the islands' rules, and the islands.
      cssHref: pageAssets().style,
      scriptHref: pageAssets().script,
      viewerHref: pageAssets().viewer,
      themeCss: theme,
      noindex: preview,
      filter: request.filter,
      form: request.form ?? { values: {}, errors: {} },
      askAbout: request.askAbout,
      frame: request.frame ?? null,
      t: translator(locale),
      lang: langOf(locale),
    };
    const body = new CompressibleBody(Buffer.from(html(data, ctx)));
    const images = new Set(this.imageOrigins);
    const tiles = data.map?.tiles ? tileOrigin(data.map.tiles.urlTemplate) : undefined;
    if (tiles) images.add(tiles);
    for (const src of moreImages) {
      // A plain host only: a URL's host may hold `*` or `'`, which a policy would read as a wildcard or a keyword.
      const found = origin(src);
      if (found && /^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(found)) images.add(found);
    }
    const ancestors = row.embedOrigins.length > 0 ? ["'self'", ...row.embedOrigins] : ['*'];
    const askable = new Set(listsHomes(data) ? data.apartments.filter((a) => a.status !== 'HIDDEN').map((a) => a.id) : []);
    const csp = baseCsp([...images], theme, ancestors);
    return {
      status: 200,
      body,
      // The policy is part of the answer: new embedOrigins with the same HTML is a new ETag, so a cache
      // revalidating with If-None-Match gets the new frame-ancestors, not a 304.
      etag: bytesEtag(Buffer.concat([body.identity, Buffer.from(csp)])),
      csp,
      estateId: row.estateId,
      noindex: preview,
      askable,
      organizationId: row.organizationId,
    };
  }

  /** Everything the page shows, through the services, as a publishable key reads it. */
  private async load(row: PageRow): Promise<PageData> {
    const organizationId = row.organizationId;
    const estateId = row.estateId;
    const { addons } = this.deps;
    const [estate, navigator, listed, investment, gallery, map, downloads] = await Promise.all([
      this.deps.estates.get(organizationId, estateId),
      // An estate without a navigator shows none; a read that failed fails the page (never kept without it).
      this.deps.navigators
        .forPage(organizationId, estateId, row.navigatorId)
        .then(
          (doc) => doc.value,
          (err) => orNothing(err) ?? null,
        ),
      // Read even without the list sections: the navigator's shapes are coloured by the apartments' status.
      this.deps.apartments.lists.list(organizationId, { estateId, sort: 'name' }, true),
      addons.investment.build(this.db, organizationId, estateId),
      addons.gallery.build(this.db, organizationId, estateId),
      addons.map.build(this.db, organizationId, estateId),
      addons.downloads.build(this.db, organizationId, estateId),
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
      assets: row.showApartments ? await this.apartmentAssets(organizationId, apartments) : new Map(),
      investment: investment.doc.enabled ? investment.doc : null,
      gallery: gallery.doc.enabled ? gallery.doc : null,
      map: map.doc.enabled ? map.doc : null,
      downloads: downloads.doc.enabled ? downloads.doc : null,
    };
  }

  /** The assets non-hidden apartments name, as the publishable asset list gives them (only what a page may show). */
  private async apartmentAssets(organizationId: string, apartments: Apartment[]): Promise<Map<string, Asset>> {
    const wanted = new Set(apartments.filter((a) => a.status !== 'HIDDEN').flatMap((a) => a.assetsIds.map((id) => id.toLowerCase())));
    const found = new Map<string, Asset>();
    if (wanted.size === 0) return found;
    const limit = 1_000;
    for (let offset = 0; found.size < wanted.size; offset += limit) {
      const page = await this.deps.assets.list(organizationId, { offset, limit }, true);
      for (const asset of page.items) if (wanted.has(asset.id)) found.set(asset.id, asset);
      if (offset + limit >= page.total) break;
    }
    return found;
  }
}

/** The page's Content-Security-Policy: no inline script, the theme's <style> by its hash, nothing else inline. */
function baseCsp(images: string[], theme: string, ancestors: string[]): string {
  const styles = ["'self'"];
  if (theme) styles.push(`'sha256-${createHash('sha256').update(theme).digest('base64')}'`);
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styles.join(' ')}`,
    `img-src ${images.join(' ')}`,
    "connect-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors.join(' ')}`,
  ].join('; ');
}

/** The cache key of an estate's plain page: the slug, or on a custom hostname the hostname and the slug. */
function pageKey(slug: string, site: PageRequest['site']): string {
  return site ? `${site.hostname} ${slug.toLowerCase()}` : slug.toLowerCase();
}
