import type { Stamp } from '../../../db/read-cache.js';
import type { CompressibleBody } from '../../../http/compression.js';
import { isUuid } from '../../../ids.js';
import { ADDON_CHANNEL, addonOfPayload } from '../../addons/state.js';
import { APARTMENT_CHANNEL } from '../../apartments/lists.js';
import { NAVIGATOR_CHANNEL } from '../../navigators/service.js';
import type { FormState, ListFilter, PageData } from '../render/types.js';
import type { PageRow } from '../repository.js';

/** NOTIFY channel of migrations/0015 and 0016: page settings and estates. */
export const PAGES_CHANNEL = 'pages_changed';
/** The other channels whose tables a page shows (apartments and buildings, navigators and assets, add-ons). */
export const PAGE_CHANNELS = [PAGES_CHANNEL, APARTMENT_CHANNEL, NAVIGATOR_CHANNEL, ADDON_CHANNEL];
/**
 * Each estate's variants of its page ("Ask about" a home, the thank-you state, the filters) are kept
 * apart, at most this many and bytes per estate, so a visitor's filter URLs displace only each other.
 */
export const PAGE_VARIANTS = { maxEntries: 32, maxBytes: 8 * 1024 * 1024 };

/** The organization a notification names: an add-on's payload is `<kind>:<estateId>:<organizationId>`, the others' the organization. */
export const scopeOfPayload = (payload: string) => {
  const organizationId = payload.includes(':') ? addonOfPayload(payload).organizationId : payload;
  return organizationId && isUuid(organizationId) ? organizationId.toLowerCase() : undefined;
};

/** What a plain page was rendered from, kept with it: its variants are rendered from this without a statement. */
export interface PageSource {
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
  /**
   * `?view=`: the nested navigator to show in place of the top one (shared/nested.ts). Only the id of one of
   * the page's nested navigators makes a variant; any other value is the page as if it had no `view`.
   */
  view?: string | undefined;
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

/** The cache key of an estate's plain page: the slug, or on a custom hostname the hostname and the slug. */
export function pageKey(slug: string, site: PageRequest['site']): string {
  return site ? `${site.hostname} ${slug.toLowerCase()}` : slug.toLowerCase();
}

/** The locale of each published page read lately (at most 10,000): the language of its notices (too many requests...). */
export class RecentLocales {
  private readonly locales = new Map<string, string>();

  note(slug: string, locale: string | undefined): void {
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

  of(slug: string): string | undefined {
    return this.locales.get(slug.toLowerCase());
  }
}
