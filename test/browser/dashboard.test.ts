import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchChromium } from './chromium.js';
import { expectAccessible, screenshot, watchedPage } from './page-kit.js';
import { call } from './seed.js';
import { ADMIN_TOKEN, type PageServer, startPageServer } from './server.js';

// The dashboard (issue 35) in Chromium: an invitation becomes an account, sign-out and sign-in, quick setup
// of an estate, an inline price change in the apartments table, sign-out (1366 px); then sign-in and an inline
// status change at 390 px; axe-core on every screen visited, no console error.

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

describe('the dashboard', () => {
  it('invitation → account → sign in → quick setup → inline price → sign out, accessible on every screen', async () => {
    const created = await call(server.base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Browser Homes' });
    const { organization, apiKey } = created as { organization: { id: string }; apiKey: string };
    const invitation = (await call(server.base, 'POST', `/api/v1/admin/organizations/${organization.id}/invitations`, ADMIN_TOKEN, {
      email: 'first.admin@browser.example',
      role: 'admin',
    })) as { url: string };

    const context = await browser.context({ viewport: { width: 1366, height: 900 } });
    const { page, problems } = await watchedPage(context, server.base);
    await page.goto(invitation.url);
    await expectAccessible(page, 'invitation');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Password', { exact: true }).fill('violet harbour lantern 42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard\/o\/[0-9a-f-]{36}\/estates$/);
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(1);
    await expectAccessible(page, 'estates (empty)');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await expectAccessible(page, 'sign-in');
    await page.getByLabel('Email').fill('first.admin@browser.example');
    await page.getByLabel('Password').fill('violet harbour lantern 42');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/estates$/);

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
    await mobile.goto(`${server.base}/dashboard/sign-in`);
    await mobile.getByLabel('Email').fill('first.admin@browser.example');
    await mobile.getByLabel('Password').fill('violet harbour lantern 42');
    await mobile.getByRole('button', { name: 'Sign in' }).click();
    await mobile.waitForURL(/\/estates$/);
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
});
