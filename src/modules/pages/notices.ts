import type { FastifyRequest } from 'fastify';
import type { HtmlErrorPage } from '../../http/route-config.js';
import { pageAssets } from './client-assets.js';
import { renderNotice } from './render/index.js';
import { type Translate, langOf, localeOfAcceptLanguage, translator } from './shared/words.js';

/** Only the stylesheet: the notice has no script, image or inline style. Framable anywhere, like the 404 (it can appear in the embed). */
const NOTICE_CSP = "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors *";

const SLUG = /^[a-z0-9-]{1,100}$/i;

/** "30 seconds", "1 minute", "5 minutes": how long a visitor is asked to wait, in the page's language. */
export function waitWords(seconds: number | undefined, t: Translate = translator('en')): string {
  if (seconds === undefined || seconds <= 1) return t('waitMoment');
  if (seconds < 90) return t('waitSeconds', { count: seconds });
  return t('waitMinutes', { count: Math.ceil(seconds / 60) });
}

/** The notice: `message` is the alert the inline form shows in place; `hint` only makes sense on the notice page. */
function words(statusCode: number, wait: string, form: boolean, t: Translate): { title: string; message: string; hint?: string } {
  const hint = t('backHint');
  if (statusCode === 429) {
    return form
      ? { title: t('tooManyFormTitle'), message: t('tooManyFormText', { wait }), hint }
      : { title: t('tooManyTitle'), message: t('tooManyText', { wait }) };
  }
  // The same form posted again while its first post is still being stored (a double click): the key is busy.
  if (statusCode === 409 && form) return { title: t('busyTitle'), message: t('busyText'), hint };
  if (statusCode === 404) return { title: t('notFound'), message: t('notFoundText') };
  if (statusCode === 413) return { title: t('tooLongTitle'), message: t('tooLongText'), hint };
  if (statusCode >= 400 && statusCode < 500) {
    return form ? { title: t('unreadableFormTitle'), message: t('unreadableFormText'), hint } : { title: t('unreadableTitle'), message: t('unreadableText') };
  }
  return form
    ? { title: t('unavailableFormTitle'), message: t('unavailableFormText', { wait }), hint }
    : { title: t('unavailableTitle'), message: t('unavailableText', { wait }) };
}

/**
 * The errors of /p/{slug} and its form as a page (route config `htmlError`): a 429 from the inquiry
 * budget, a 503 in an outage, a form body too large. The inline form reads the alert of this page and
 * shows it in place, keeping what the visitor typed.
 */
export const pageErrorNotice =
  (localeOf: (slug: string) => string | undefined) =>
  (error: { statusCode: number; retryAfterSeconds: number | undefined }, request: FastifyRequest): HtmlErrorPage => {
    const slug = (request.params as { slug?: unknown } | undefined)?.slug;
    const known = typeof slug === 'string' && SLUG.test(slug);
    const page = known ? `/p/${slug}` : undefined;
    // In the page's language when it was read lately, else in the visitor's.
    const locale = (known && localeOf(slug)) || localeOfAcceptLanguage(request.headers['accept-language']);
    const t = translator(locale);
    const form = request.method === 'POST';
    const notice = words(error.statusCode, waitWords(error.retryAfterSeconds, t), form, t);
    const back = page ? { href: form ? `${page}#inquiry` : page, label: t(form ? 'backToPage' : 'reloadPage') } : undefined;
    return {
      body: renderNotice(pageAssets().style, { lang: langOf(locale), ...notice, ...(back && { back }) }),
      headers: {
        'content-security-policy': NOTICE_CSP,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-robots-tag': 'noindex, nofollow',
      },
    };
  };
