import { renderToString } from 'preact-render-to-string';
import type { Apartment } from '../../apartments/schemas.js';
import { HomeCard } from '../components/home-card/render.js';
import { FrameOverlay, findFrame, shapeContext } from '../components/navigator/render.js';
import type { ViewerPanorama } from '../shared/panorama.js';
import type { Translate } from '../shared/words.js';
import { HomePage, NotFoundPage, NoticePage, Page, listsHomes } from './page.js';
import type { PageData, RenderContext } from './types.js';

/** The page as HTML text: Preact escapes every text and attribute value it writes. */
export const renderPage = (data: PageData, ctx: RenderContext): string => `<!doctype html>${renderToString(<Page data={data} ctx={ctx} />)}`;

/** A home's own page, with its panoramas. */
export const renderHomePage = (data: PageData, ctx: RenderContext, home: Apartment, panoramas: ViewerPanorama[] = []): string =>
  `<!doctype html>${renderToString(<HomePage data={data} ctx={ctx} home={home} panoramas={panoramas} />)}`;

/** A home's card alone (`?part=card`): what the main page's script opens in its panel. */
export const renderHomeCard = (data: PageData, ctx: RenderContext, home: Apartment): string =>
  renderToString(<HomeCard apartment={home} locale={data.settings.locale} t={ctx.t} path={ctx.path} favourites={data.navigator?.options.favouritesEnabled} />);

export const renderNotFound = (cssHref: string, t: Translate, lang: string): string =>
  `<!doctype html>${renderToString(<NotFoundPage cssHref={cssHref} t={t} lang={lang} />)}`;

export const renderNotice = (
  cssHref: string,
  notice: { lang: string; title: string; message: string; hint?: string; back?: { href: string; label: string } },
): string => `<!doctype html>${renderToString(<NoticePage cssHref={cssHref} {...notice} />)}`;

/**
 * One frame's overlay with its shapes (`/p/{slug}?part=frame&frame={id}`): what the page's script puts in
 * place of a frame's empty overlay when it shows that frame. null for a frame the page does not have.
 */
export function renderFrameOverlay(data: PageData, ctx: RenderContext, frameId: string): string | null {
  const found = data.navigator && findFrame(data.navigator, frameId);
  if (!found) return null;
  const apartments = new Map(data.apartments.map((a) => [a.id, a]));
  const shapes = shapeContext(found.navigator, apartments, data.settings.locale, ctx.t, listsHomes(data) ? ctx.path : null);
  return renderToString(<FrameOverlay navigator={found.navigator} frame={found.frame} ctx={shapes} withShapes />);
}
