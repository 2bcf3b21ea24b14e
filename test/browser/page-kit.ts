import { mkdirSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT } from '../helpers/processes.js';

/** Screenshots and reports of the browser tier (BROWSER_REPORT_DIR, default .tmp/browser-report). */
export const REPORT_DIR = path.resolve(process.env.BROWSER_REPORT_DIR ?? path.join(ROOT, '.tmp', 'browser-report'));
mkdirSync(REPORT_DIR, { recursive: true });

/** The WCAG 2.1 A and AA rules of axe-core. */
const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Watched {
  page: Page;
  /** Console errors, page errors, failed requests, answers >= 400 and requests to another origin, as they happened. */
  problems: string[];
  /** Every URL the page asked for, in order. */
  requests: string[];
}

/**
 * A page in `context` that records what must never happen: a console error, an uncaught exception, a
 * request that failed or answered >= 400, a request to any origin but the service's (`allowed` says
 * which origins a test lets through, e.g. map tiles after "Show map"). Layout shifts are summed from the start
 * (init script, so the first paint is counted too).
 */
export async function watchedPage(context: BrowserContext, origin: string, allowed: (origin: string) => boolean = () => false): Promise<Watched> {
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`answer ${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    requests.push(url);
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    const other = new URL(url).origin;
    if (other !== origin && !allowed(other)) problems.push(`request to another origin: ${url}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }>) {
        if (entry.hadRecentInput) continue;
        w.__cls += entry.value;
        w.__shifts.push(`${entry.value.toFixed(4)} ${(entry.sources ?? []).map((s) => (s.node as Element | undefined)?.outerHTML?.slice(0, 80)).join(' | ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return { page, problems, requests };
}

/** 0 axe-core violations of WCAG 2.1 A/AA on the page as it is now. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const installed = await page.evaluate(() => 'axe' in window);
  if (!installed) await page.evaluate(axe.source);
  const result = (await page.evaluate(
    (tags) => (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    WCAG21_AA,
  )) as axe.AxeResults;
  const violations = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(violations, `axe-core in state "${state}"`).toEqual([]);
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  const file = path.join(REPORT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** Scrolls to the bottom in viewport steps (so lazy images load and any late shift happens), then back up. */
export async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = await page.evaluate(() => window.innerHeight);
  for (let y = 0; y <= height; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(100);
  }
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(200);
}

export const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number; __shifts: string[] }).__shifts);

/** What has focus: a short description (tag, id, class, data ids, label) for keyboard walks. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    return [
      el.tagName.toLowerCase(),
      el.id ? `#${el.id}` : '',
      el.getAttribute('class') ? `.${el.getAttribute('class')?.split(' ').join('.')}` : '',
      el.dataset.apartmentId ? `[apartment=${el.dataset.apartmentId}]` : '',
      el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : '',
      el.getAttribute('aria-label') ? `"${el.getAttribute('aria-label')}"` : '',
    ].join('');
  });
