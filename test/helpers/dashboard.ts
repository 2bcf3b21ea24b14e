import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, type TestApp } from './app.js';

export const ORIGIN = 'http://localhost:3000';
export const PASSWORD = 'violet harbour lantern 42';

/** The urlencoded body of a dashboard form. */
export const formBody = (fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  return body.toString();
};

/** The value of the session cookie a response sets ('' when it clears it), or undefined. */
export function sessionCookieOf(res: LightMyRequestResponse): string | undefined {
  const headers = [res.headers['set-cookie'] ?? []].flat();
  const line = headers.find((h) => h.startsWith('pps_session='));
  return line === undefined ? undefined : decodeURIComponent(line.slice('pps_session='.length).split(';')[0]!);
}

export const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** A signed-in browser of the dashboard: its cookie, its CSRF token, GET and POST of forms. */
export interface DashboardUser {
  cookie: string;
  csrf: string;
  orgId: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, fields: Record<string, string | string[]>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export async function invite(t: TestApp, orgId: string, email: string, role: 'admin' | 'editor' | 'viewer'): Promise<string> {
  const res = await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${orgId}/invitations`, key: ADMIN_TOKEN, body: { email, role } });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
  return new URL((res.json() as { url: string }).url).pathname;
}

export function browserOf(t: TestApp, cookie: string, orgId: string): DashboardUser {
  const user: DashboardUser = {
    cookie,
    csrf: '',
    orgId,
    get: (url) => t.app.inject({ method: 'GET', url, headers: { cookie: `pps_session=${encodeURIComponent(user.cookie)}` } }),
    post: async (url, fields, headers = {}) => {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: `pps_session=${encodeURIComponent(user.cookie)}`, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: formBody({ _csrf: user.csrf, ...fields }),
      });
      const renewed = sessionCookieOf(res);
      if (renewed) user.cookie = renewed;
      return res;
    },
  };
  return user;
}

/** Invites `email` with `role`, accepts the invitation (a new account), and returns the signed-in browser. */
export async function joinAs(t: TestApp, orgId: string, email: string, role: 'admin' | 'editor' | 'viewer'): Promise<DashboardUser> {
  const path = await invite(t, orgId, email, role);
  const res = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    payload: formBody({ firstName: 'Test', lastName: role, password: PASSWORD }),
  });
  if (res.statusCode !== 303) throw new Error(`accept failed: ${res.statusCode} ${res.body}`);
  const user = browserOf(t, sessionCookieOf(res)!, orgId);
  const page = await user.get(`/dashboard/o/${orgId}/account`);
  user.csrf = csrfOf(page.body);
  return user;
}

/** POST of the import form: multipart with the CSRF field and one CSV file (apartments screen). */
export function importPreview(t: TestApp, user: DashboardUser, url: string, csv: string): Promise<LightMyRequestResponse> {
  const boundary = 'dashboard-test-boundary';
  const payload = [
    `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${user.csrf}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="apartments.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: `pps_session=${encodeURIComponent(user.cookie)}`, origin: ORIGIN },
    payload,
  });
}

/** The CSV a preview carries to its confirm form (the hidden field), unescaped. */
export function hiddenCsv(html: string): string {
  const value = /<input type="hidden" name="csv" value="([^"]*)"/.exec(html)?.[1] ?? '';
  return value
    .replace(/&#10;/g, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
