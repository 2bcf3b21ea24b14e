import type { FastifyReply } from 'fastify';
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { dashboardStylesheet } from '../assets.js';

/** No script or style but our own files; forms post only here; never framed. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS: Record<string, string> = {
  'content-security-policy': DASHBOARD_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
};

/** The whole document of a screen; preact escapes every text and attribute it renders. */
export function Document(props: { title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Dashboard`}</title>
        <link rel="stylesheet" href={dashboardStylesheet().href} />
      </head>
      <body>{props.children}</body>
    </html>
  );
}

export const toHtml = (vnode: VNode): string => `<!doctype html>${renderToString(vnode)}`;

/** Sends a rendered screen with the dashboard's headers (private, never cached). */
export function sendHtml(reply: FastifyReply, vnode: VNode, status = 200): FastifyReply {
  return reply.code(status).headers(DASHBOARD_HEADERS).type('text/html; charset=utf-8').send(toHtml(vnode));
}

/** POST, then 303 to the screen that shows the result (the browser's back and reload stay harmless). */
export const seeOther = (reply: FastifyReply, location: string): FastifyReply =>
  reply.code(303).header('location', location).header('cache-control', 'no-store').send('');
