import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

/** Debian's package (`apt-get install -y chromium`); Playwright's own browser downloads are not used. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags of every launch: headless, nothing fetched in the background, nothing but what the page asks for. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  /** A context with its own fresh profile (--user-data-dir in a new temporary folder); `args` replaces CHROMIUM_FLAGS. */
  context(options?: BrowserContextOptions & { args?: string[] }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Each context is a persistent context on a fresh --user-data-dir (Playwright passes the folder as that
 * flag), so no state is carried from one test to the next and nothing outside the test's temp folders is touched.
 */
export function launchChromium(): Browser {
  const open: Array<{ context: BrowserContext; dir: string }> = [];
  return {
    async context(options = {}) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'pps-chromium-'));
      const context = await chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_FLAGS,
        ...options,
      });
      open.push({ context, dir });
      return context;
    },
    async close() {
      for (const { context, dir } of open.splice(0)) {
        await context.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
