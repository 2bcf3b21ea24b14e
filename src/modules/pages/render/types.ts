import type { Static } from '@sinclair/typebox';
import type { DownloadsDocument } from '../../addons/downloads/schemas.js';
import type { GalleryDocument } from '../../addons/gallery/schemas.js';
import type { InvestmentDocument } from '../../addons/investment/schemas.js';
import type { MapDocument } from '../../addons/map/schemas.js';
import type { AddonAsset } from '../../addons/schemas.js';
import type { Apartment } from '../../apartments/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import type { Navigator } from '../../navigators/schemas.js';
import type { PageFields } from '../repository.js';
import type { ListFilter } from '../shared/filter.js';
import type { Key } from '../shared/words.js';
import type { Translate } from '../shared/words.js';

export type Asset = Static<typeof AddonAsset>;

/** Everything a page shows, read through the services as a publishable key reads it (already masked). */
export interface PageData {
  estate: Pick<Estate, 'id' | 'name' | 'description' | 'slug' | 'buildings'>;
  settings: PageFields;
  /** The navigator the page shows (with its nested ones), or null when the estate has none. */
  navigator: Navigator | null;
  /** Every apartment of the estate, masked (publicView), HIDDEN ones included (they are shapes only). */
  apartments: Apartment[];
  /** The assets apartments name in assetsIds, by id (only those a public page may show). */
  assets: Map<string, Asset>;
  investment: InvestmentDocument | null;
  gallery: GalleryDocument | null;
  map: MapDocument | null;
  downloads: DownloadsDocument | null;
}

export type { ListFilter };

/** The inquiry form's state: what the visitor sent and the error of each field (after a 422). */
export interface FormState {
  values: { name?: string; email?: string; phoneNumber?: string; info?: string; apartmentIds?: string[] };
  /** Each error as its message's key: written in the page's language when rendered. */
  errors: Partial<Record<'name' | 'email' | 'phoneNumber' | 'info' | 'apartmentIds' | 'form', Key>>;
  sent?: boolean;
}

/** What the request adds to the data: where the page lives, its assets, the form and filter state. */
export interface RenderContext {
  publicUrl: string;
  /** /p/{slug}, or '' on the estate's own hostname */
  path: string;
  /** The canonical URL when it is not publicUrl + path: https://{own hostname}/ (issue 37). */
  canonical?: string | undefined;
  cssHref: string;
  scriptHref: string | null;
  /** The 360° viewer's bundle (components/panoramas/viewer.client.ts), imported by the page's script only when a viewer opens. */
  viewerHref: string;
  /** Inline <style> text of the theme (its hash is in the CSP). */
  themeCss: string;
  noindex: boolean;
  filter: ListFilter;
  /** The nested navigator the address names (`?view=`); the render shows the top one unless it is one of the page's. */
  view?: string | null | undefined;
  form: FormState;
  /** The frame the address names (`?frame={id}`, a "View" link without JavaScript): shown first, with its shapes. */
  frame?: string | null | undefined;
  /** The apartment the form is about (?apartment= from "Ask about this home"). */
  askAbout: string | null;
  /** The page's words in its language (shared/words.ts), and the `lang` that matches them. */
  t: Translate;
  lang: string;
}
