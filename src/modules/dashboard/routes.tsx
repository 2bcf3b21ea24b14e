import type { FastifyError, FastifyInstance } from 'fastify';
import { mapDatabaseError } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import { dashboardStylesheet, islandScript } from './assets.js';
import { seeOther, sendHtml } from './render/html.js';
import { Plain } from './render/shell.js';
import { authRoutes } from './screens/auth.js';
import { orgScreens } from './screens/index.js';
import { installSession } from './session.js';

/** A form is a few fields; a CSV import has its own, larger limit (screens/apartments). */
const FORM_BODY_LIMIT = 256 * 1024;

const TITLES: Record<number, string> = {
  400: 'This request could not be read',
  401: 'Sign in',
  403: 'You cannot do this',
  404: 'Page not found',
  409: 'This could not be saved',
  412: 'Someone changed this since you opened it',
  413: 'This is too large',
  429: 'Too many attempts',
};

/**
 * The dashboard under /dashboard: sessions and CSRF (session.ts), sign-in and the invitation page, and each
 * organization's screens under /dashboard/o/:orgId/. Errors are pages in the dashboard's words, never JSON.
 */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  dashboardStylesheet();
  islandScript();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) =>
    done(null, new URLSearchParams(body as string)),
  );
  await installSession(app);

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const mapped = err instanceof AppError ? err : mapDatabaseError(err);
    let status = mapped?.statusCode ?? (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500);
    if (err.validation) status = request.method === 'GET' ? 404 : 400;
    if (status >= 500) request.log.error({ err }, 'dashboard request failed');
    // A signed-out visit of a screen goes to sign-in and comes back after it.
    if (status === 401 && request.method === 'GET') return seeOther(reply, `/dashboard/sign-in?next=${encodeURIComponent(request.url.split('#')[0]!)}`);
    if (status === 429 && mapped?.retryAfterSeconds) reply.header('retry-after', String(mapped.retryAfterSeconds));
    const message =
      status >= 500
        ? 'Something went wrong on our side; nothing you did caused it. Try again in a moment.'
        : status === 404
          ? 'There is nothing here, or it belongs to an organization you are not a member of.'
          : (mapped?.message ?? err.message);
    return sendHtml(
      reply,
      <Plain title={TITLES[status] ?? 'Something went wrong'}>
        <p>{message}</p>
        <p>
          <a href="/dashboard">Back to the dashboard</a>
        </p>
      </Plain>,
      status,
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendHtml(
      reply,
      <Plain title="Page not found">
        <p>There is nothing at {request.url.split('?')[0]}.</p>
        <p>
          <a href="/dashboard">Back to the dashboard</a>
        </p>
      </Plain>,
      404,
    ),
  );

  await app.register(authRoutes);
  await app.register(orgScreens, { prefix: '/o/:orgId' });
}
