import type { FastifyRequest } from 'fastify';
import type { HtmlErrorPage } from '../../http/route-config.js';
import { loadStylesheet } from './assets.js';
import { renderNotice } from './render/index.js';

/** Only the stylesheet: the notice has no script, image or inline style. Framable anywhere, like the 404 (it can appear in the embed). */
const NOTICE_CSP = "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors *";

const SLUG = /^[a-z0-9-]{1,100}$/i;

/** "30 seconds", "1 minute", "5 minutes": how long a visitor is asked to wait. */
export function waitWords(seconds: number | undefined): string {
  if (seconds === undefined || seconds <= 1) return 'a moment';
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

const BACK = "Your browser's Back button returns to the form with what you typed.";

/** The notice: `message` is the alert the inline form shows in place; `hint` only makes sense on the notice page. */
function words(statusCode: number, wait: string, form: boolean): { title: string; message: string; hint?: string } {
  if (statusCode === 429) {
    return form
      ? {
          title: 'Please wait before sending again',
          message: `Too many inquiries were sent from your connection. Please wait ${wait} and send yours again.`,
          hint: BACK,
        }
      : { title: 'Please wait a moment', message: `Too many pages were requested from your connection. Please wait ${wait} and reload this page.` };
  }
  // The same form posted again while its first post is still being stored (a double click): the key is busy.
  if (statusCode === 409 && form)
    return {
      title: 'Your inquiry is already being sent',
      message: 'The same inquiry was sent twice at once. Please wait a moment and send it again: it is stored only once.',
      hint: BACK,
    };
  if (statusCode === 404) return { title: 'Page not found', message: 'There is no published project at this address.' };
  if (statusCode === 413)
    return {
      title: 'Your inquiry is too long',
      message: 'The form was larger than this page accepts. Please shorten your message and send it again.',
      hint: BACK,
    };
  if (statusCode >= 400 && statusCode < 500) {
    return form
      ? { title: 'Your inquiry could not be read', message: 'Please send the form again.', hint: BACK }
      : { title: 'This address could not be read', message: 'Please check the link and try again.' };
  }
  return form
    ? { title: 'Your inquiry could not be sent yet', message: `The service is briefly unavailable. Please try again in ${wait}.`, hint: BACK }
    : { title: 'This page is briefly unavailable', message: `Please try again in ${wait}.` };
}

/**
 * The errors of /p/{slug} and its form as a page (route config `htmlError`): a 429 from the inquiry
 * budget, a 503 in an outage, a form body too large. The inline form reads the alert of this page and
 * shows it in place, keeping what the visitor typed.
 */
export function pageErrorNotice(error: { statusCode: number; retryAfterSeconds: number | undefined }, request: FastifyRequest): HtmlErrorPage {
  const slug = (request.params as { slug?: unknown } | undefined)?.slug;
  const page = typeof slug === 'string' && SLUG.test(slug) ? `/p/${slug}` : undefined;
  const form = request.method === 'POST';
  const notice = words(error.statusCode, waitWords(error.retryAfterSeconds), form);
  const back = page ? { href: form ? `${page}#inquiry` : page, label: form ? 'Back to the project page' : 'Reload the project page' } : undefined;
  return {
    body: renderNotice(loadStylesheet().href, { ...notice, ...(back && { back }) }),
    headers: {
      'content-security-policy': NOTICE_CSP,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-robots-tag': 'noindex, nofollow',
    },
  };
}
