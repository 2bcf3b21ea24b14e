import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { PASSWORD } from './dashboard-seed.js';
import { expectAccessible, screenshot, watchedPage } from './page-kit.js';
import { call } from './seed.js';
import { ADMIN_TOKEN, type PageServer, startPageServer } from './server.js';

// The dashboard (issue 35) in Chromium: an invitation becomes an account, sign-out and sign-in, quick setup
// of an estate, an inline price change in the apartments table, sign-out (1366 px); then sign-in and an inline
// status change at 390 px; axe-core on every screen visited, no console error. Then the same flow with JavaScript
// off at 390 px, every step a form that posts and a 303 back (a building and the apartments added through the
// dashboard's own forms: the building form and the CSV import).

let server: PageServer;
let browser: Browser;

beforeAll(async () => {
  server = await startPageServer();
  browser = launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A new organization, its API key and an admin invitation's URL for `email`. */
async function invited(name: string, email: string): Promise<{ orgId: string; apiKey: string; url: string }> {
  const created = await call(server.base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name });
  const { organization, apiKey } = created as { organization: { id: string }; apiKey: string };
  const invitation = (await call(server.base, 'POST', `/api/v1/admin/organizations/${organization.id}/invitations`, ADMIN_TOKEN, {
    email,
    role: 'admin',
  })) as { url: string };
  return { orgId: organization.id, apiKey, url: invitation.url };
}

/** Fills the invitation's form (the page is on it); "Create account" submits it. */
async function fillInvitation(page: Page): Promise<void> {
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.base}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/estates$/);
}

/** Clicks `button`, whose form posts and is answered by a 303 to a page whose URL (without its fragment) matches `to`: checks both. */
async function postAndFollow(page: Page, button: string, to: RegExp): Promise<void> {
  const [landed] = await Promise.all([
    page.waitForResponse((r) => r.request().isNavigationRequest() && to.test(r.url())),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const posted = landed.request().redirectedFrom();
  expect(posted?.method()).toBe('POST');
  expect((await posted!.response())?.status()).toBe(303);
  expect(landed.status()).toBe(200);
  await page.waitForLoadState();
}

describe('the dashboard', () => {
  it('invitation → account → sign in → quick setup → inline price → sign out, accessible on every screen', async () => {
    const { orgId, apiKey, url } = await invited('Browser Homes', 'first.admin@browser.example');
    const organization = { id: orgId };

    const context = await browser.context({ viewport: { width: 1366, height: 900 } });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(url);
    await expectAccessible(page, 'invitation');
    await fillInvitation(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard\/o\/[0-9a-f-]{36}\/estates$/);
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(1);
    await expectAccessible(page, 'estates (empty)');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await expectAccessible(page, 'sign-in');
    await signIn(page, 'first.admin@browser.example');

    await page.getByLabel('Estate name').fill('Browser Park');
    await page.getByRole('button', { name: 'Create estate' }).click();
    await page.waitForURL(/\/estates\/[0-9a-f-]{36}\?done=created$/);
    expect(await page.getByText('The estate is set up with its first building.').count()).toBe(1);
    await expectAccessible(page, 'estate');
    const estateId = /estates\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    const estate = (await call(server.base, 'GET', `/api/v1/estate/${estateId}`, apiKey)) as { buildings: Array<{ id: string }> };
    await call(server.base, 'POST', '/api/v1/apartment/bulk', apiKey, {
      buildingId: estate.buildings[0]!.id,
      apartments: ['A-1', 'A-2', 'A-3'].map((name, i) => ({ name, priceCents: (300_000 + i * 10_000) * 100, currency: 'EUR' })),
    });

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Apartments' }).click();
    await page.waitForURL(/\/apartments/);
    await expectAccessible(page, 'apartments');
    await page.getByLabel('Price of A-2 (EUR)').fill('305000');
    await page.getByRole('button', { name: 'Save A-2' }).click();
    await page.waitForURL(/done=saved/);
    expect(await page.getByText('The apartment is saved.').count()).toBe(1);
    expect(await page.getByLabel('Price of A-2 (EUR)').inputValue()).toBe('305000');
    await screenshot(page, 'dashboard-apartments', false);
    const listed = (await call(server.base, 'GET', `/api/v1/apartment?estateId=${estateId}`, apiKey)) as { items: Array<{ name: string; priceCents: number }> };
    expect(listed.items.find((a) => a.name === 'A-2')!.priceCents).toBe(305_000_00);

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Members' }).click();
    await page.waitForURL(/\/members$/);
    await expectAccessible(page, 'members');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Domains' }).click();
    await page.getByLabel('Hostname').fill('homes.browser.example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/\/domains\?done=added$/);
    expect(await page.getByLabel('TXT record name').inputValue()).toBe('_pps-challenge.homes.browser.example');
    await expectAccessible(page, 'domains');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Your account' }).click();
    await expectAccessible(page, 'account');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await page.goto(`${server.base}/dashboard/o/${organization.id}/apartments`);
    await page.waitForURL(/\/dashboard\/sign-in\?next=/);
    expect(problems).toEqual([]);
    await context.close();

    // The same account on a phone. The dashboard ships no script yet, so this is also the no-JavaScript path: every
    // form a plain POST answered by a 303. (A context with javaScriptEnabled: false cannot run axe-core.)
    const phone = await browser.context({ viewport: { width: 390, height: 844 } });
    const watched = await watchedPage(phone, server.base);
    const mobile = watched.page;
    await signIn(mobile, 'first.admin@browser.example');
    await mobile.goto(`${server.base}/dashboard/o/${organization.id}/apartments?estateId=${estateId}&status=ACTIVE&sort=-priceCents`);
    await expectAccessible(mobile, 'apartments at 390 px');
    await mobile.getByLabel('Status of A-3').selectOption('BOOKED');
    await mobile.getByRole('button', { name: 'Save A-3' }).click();
    await mobile.waitForURL(/done=saved/);
    // Back to the same filter: A-3 is no longer ACTIVE, so it left the list.
    expect(await mobile.getByLabel('Status of A-3').count()).toBe(0);
    await screenshot(mobile, 'dashboard-apartments-390', false);
    await mobile.getByRole('button', { name: 'Sign out' }).click();
    await mobile.waitForURL(/\/dashboard\/sign-in$/);
    expect(watched.problems).toEqual([]);
  });

  it('the same flow with JavaScript off at 390 px: every form posts and a 303 answers', async () => {
    const { orgId, apiKey, url } = await invited('Plain Homes', 'plain.admin@browser.example');
    const context = await browser.context({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const { page, problems } = await watchedPage(context, server.base);

    await page.goto(url);
    await fillInvitation(page);
    await postAndFollow(page, 'Create account', new RegExp(`/dashboard/o/${orgId}/estates$`));
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(1);

    await page.getByLabel('Estate name').fill('Plain Park');
    await page.getByLabel('First building').fill('Tower A');
    await postAndFollow(page, 'Create estate', /\/estates\/[0-9a-f-]{36}\?done=created$/);
    expect(await page.getByText('The estate is set up with its first building.').count()).toBe(1);
    const estateId = /estates\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    await page.getByLabel('New building').fill('Tower B');
    await postAndFollow(page, 'Add building', new RegExp(`/estates/${estateId}\\?done=building$`));
    expect(await page.getByText('The building is added.').count()).toBe(1);
    expect(await page.getByLabel('Name of Tower B').inputValue()).toBe('Tower B');
    const estate = (await call(server.base, 'GET', `/api/v1/estate/${estateId}`, apiKey)) as { buildings: Array<{ id: string; name: string }> };
    expect(estate.buildings.map((b) => b.name).sort()).toEqual(['Tower A', 'Tower B']);

    // Three apartments through the CSV import: the file posts as multipart (the preview, saving nothing), then the confirmation.
    await page.getByRole('link', { name: 'Apartments of this estate' }).click();
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.waitForURL(/\/apartments\/import\?estateId=/);
    const rows = ['B-1', 'B-2', 'B-3'].map((name, i) => `Tower B,${name},ACTIVE,${300_000 + i * 10_000},EUR`);
    const csv = ['building,name,status,price,currency', ...rows].join('\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'apartments.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Preview import' }).click();
    await page.getByText('3 to create, 0 to change, 0 unchanged.').waitFor();
    expect((await call(server.base, 'GET', `/api/v1/apartment?estateId=${estateId}`, apiKey)).items).toEqual([]);
    await postAndFollow(page, 'Confirm import', new RegExp(`/apartments\\?estateId=${estateId}&done=imported$`));
    expect(await page.getByText('The import is done').count()).toBe(1);
    const imported = (await call(server.base, 'GET', `/api/v1/apartment?estateId=${estateId}`, apiKey)) as {
      items: Array<{ name: string; buildingId: string; priceCents: number }>;
    };
    const towerB = estate.buildings.find((b) => b.name === 'Tower B')!.id;
    expect(imported.items.map((a) => [a.name, a.buildingId, a.priceCents])).toEqual([
      ['B-1', towerB, 300_000_00],
      ['B-2', towerB, 310_000_00],
      ['B-3', towerB, 320_000_00],
    ]);

    await page.getByLabel('Price of B-2 (EUR)').fill('305000');
    await postAndFollow(page, 'Save B-2', /done=saved$/);
    expect(page.url()).toMatch(/done=saved#apartment-[0-9a-f-]{36}$/);
    expect(await page.getByText('The apartment is saved.').count()).toBe(1);
    expect(await page.getByLabel('Price of B-2 (EUR)').inputValue()).toBe('305000');
    await screenshot(page, 'dashboard-apartments-390-no-js', false);
    const listed = (await call(server.base, 'GET', `/api/v1/apartment?estateId=${estateId}`, apiKey)) as { items: Array<{ name: string; priceCents: number }> };
    expect(listed.items.map((a) => [a.name, a.priceCents])).toEqual([
      ['B-1', 300_000_00],
      ['B-2', 305_000_00],
      ['B-3', 320_000_00],
    ]);

    await postAndFollow(page, 'Sign out', /\/dashboard\/sign-in$/);
    await page.goto(`${server.base}/dashboard/o/${orgId}/apartments`);
    await page.waitForURL(/\/dashboard\/sign-in\?next=/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
