import { renderToString } from 'preact-render-to-string';
import { NotFoundPage, NoticePage, Page } from './page.js';
import type { PageData, RenderContext } from './types.js';

/** The page as HTML text: Preact escapes every text and attribute value it writes. */
export const renderPage = (data: PageData, ctx: RenderContext): string => `<!doctype html>${renderToString(<Page data={data} ctx={ctx} />)}`;

export const renderNotFound = (cssHref: string): string => `<!doctype html>${renderToString(<NotFoundPage cssHref={cssHref} />)}`;

export const renderNotice = (cssHref: string, notice: { title: string; message: string; hint?: string; back?: { href: string; label: string } }): string =>
  `<!doctype html>${renderToString(<NoticePage cssHref={cssHref} {...notice} />)}`;
