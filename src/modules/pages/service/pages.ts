import type { Config } from '../../../config.js';
import type { Database } from '../../../db/client.js';
import { type Caching, ReadCache, followingWrites } from '../../../db/read-cache.js';
import { orNothing } from '../../../errors.js';
import { CompressibleBody } from '../../../http/compression.js';
import { bytesEtag } from '../../../http/etag.js';
import { isUuid } from '../../../ids.js';
import type { BlobStore } from '../../../storage/blob-store.js';
import type { PanoramasService } from '../../panoramas/service.js';
import { pageAssets } from '../client-assets.js';
import { verifyPreview } from '../preview.js';
import { renderFrameOverlay, renderHomeCard, renderHomePage, renderNotFound, renderPage } from '../render/index.js';
import { listsHomes } from '../render/page.js';
import type { PageData, RenderContext } from '../render/types.js';
import { type PageRow, pagesRepository as repo } from '../repository.js';
import type { PageSettings, PutPageBody } from '../schemas.js';
import { viewChain } from '../shared/nested.js';
import { type ViewerPanorama, viewerPanoramas } from '../shared/panorama.js';
import { langOf, languageOf, translator } from '../shared/words.js';
import { PAGE_CHANNELS, PAGE_VARIANTS, type PageRequest, RecentLocales, type RenderedPage, pageKey, scopeOfPayload } from './cache.js';
import { knownFrame } from './frames.js';
import { type PageSources, loadPageData } from './load.js';
import { ancestorsOf, baseCsp, imageOriginsOf, ownImageOrigins, themeCss } from './policy.js';
import { PageSettingsStore } from './settings.js';

export interface PagesDeps extends PageSources {
  config: Pick<Config, 'publicUrl'>;
  storage: Pick<BlobStore, 'publicUrl'>;
  caching: Caching;
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
 * the plain page's data and kept among the estate's variants (PAGE_VARIANTS). The settings are
 * service/settings.ts, the data loading load.ts, the policy policy.ts, the cache's keys cache.ts.
 */
export class PagesService {
  readonly pages: ReadCache<RenderedPage>;
  private readonly db: Database;
  /** img-src of every page (policy.ts ownImageOrigins). */
  private readonly imageOrigins: string[];
  private readonly store: PageSettingsStore;
  private readonly locales = new RecentLocales();

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
    this.imageOrigins = ownImageOrigins(deps.config, deps.storage);
    this.store = new PageSettingsStore(deps.db, deps.navigators, (slug) => this.url(slug));
  }

  /** One subscriber per channel a page depends on, all moving this cache (src/db/change-listener.ts). */
  subscribers() {
    return this.pages.subscribers();
  }

  private url(slug: string): string {
    return `${this.deps.config.publicUrl}/p/${slug}`;
  }

  /** The settings (service/settings.ts): GET as the caller may see them, PUT, a preview link, revoking the links. */
  settings(estateId: string, caller: string | undefined): Promise<{ settings: PageSettings; owner: boolean }> {
    return this.store.settings(estateId, caller);
  }

  put(organizationId: string, estateId: string, input: PutPageBody): Promise<PageSettings> {
    return this.store.put(organizationId, estateId, input);
  }

  preview(organizationId: string, estateId: string): Promise<{ url: string; expiresAt: string }> {
    return this.store.preview(organizationId, estateId);
  }

  revokePreviews(organizationId: string, estateId: string): Promise<void> {
    return this.store.revokePreviews(organizationId, estateId);
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
    this.locales.note(slug, plain?.source?.data.settings.locale);
    return plain?.source ? plain : undefined;
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
    return this.locales.of(slug);
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
    // A view that names none of the page's nested navigators is the page without one: no entry of its own.
    const navigator = plain.source.data.navigator;
    const chain = navigator && request.view && request.view.length <= 64 ? viewChain(navigator, request.view) : null;
    const view = chain ? chain[chain.length - 1]! : null;
    const frame = knownFrame(plain.source.data, request.frame);
    if (askAbout === null && Object.keys(request.filter).length === 0 && !thanks && view === null && frame === null) return plain;
    // A variant ("Ask about" a home on the page, the thank-you state, a filter, a nested navigator shown, a frame
    // shown first): rendered from the plain page's data (no statement) and kept among this estate's variants, as
    // old as that data.
    const key = `${lower} ${askAbout ?? ''} ${thanks ? 'sent' : ''} ${view ?? ''} ${JSON.stringify(request.filter)} ${frame ?? ''}`;
    return this.variant(plain, key, (row, data) =>
      this.render(row, data, false, {
        filter: request.filter,
        askAbout,
        view: view ?? undefined,
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
      const body = new CompressibleBody(Buffer.from(renderNotFound(pageAssets().style, translator(language), langOf(language))));
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
    const data = await loadPageData(this.deps, row);
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
      view: request.view,
      form: request.form ?? { values: {}, errors: {} },
      askAbout: request.askAbout,
      frame: request.frame ?? null,
      t: translator(locale),
      lang: langOf(locale),
    };
    const body = new CompressibleBody(Buffer.from(html(data, ctx)));
    const askable = new Set(listsHomes(data) ? data.apartments.filter((a) => a.status !== 'HIDDEN').map((a) => a.id) : []);
    const csp = baseCsp(imageOriginsOf(this.imageOrigins, data, moreImages), theme, ancestorsOf(row.embedOrigins));
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
}
