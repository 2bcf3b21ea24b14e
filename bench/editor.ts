/**
 * The dashboard's shape editor screen (issue 36, phase 2) in Chromium on the built server (PGlite):
 * - time to first draw: from navigating to a frame's screen to the island ready, and to a first shape of four
 *   corners closed by clicking;
 * - saving 120 shapes: "Copy shapes from" a frame holding 120 (one per apartment), then "Save shapes" until the
 *   island says they are saved (the dashboard's JSON PUT: validation, references, If-Match, the write).
 * Medians of --runs; one line of JSON per measure.
 *
 *   npm run build && npx tsx bench/editor.ts [--runs 3]
 */
import { parseArgs } from 'node:util';
import { launchChromium } from '../test/browser/chromium.js';
import { seedDashboardEstate, signIn, toScreen } from '../test/browser/dashboard-seed.js';
import { startPageServer } from '../test/browser/server.js';
import { median } from './lib.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);
const SHAPES = 120;

const server = await startPageServer();
const browser = launchChromium();
try {
  const seeded = await seedDashboardEstate(server.base, SHAPES);
  // 120 shapes on the back frame: a 12 x 10 grid of rectangles, one per apartment.
  const grid = seeded.apartments.map((a, i) => {
    const x = 20 + (i % 12) * 130;
    const y = 20 + Math.floor(i / 12) * 115;
    return { referenceType: 'apartment', referenceId: a.id, shape: `M${x} ${y}H${x + 110}V${y + 95}H${x}Z` };
  });
  const put = await fetch(`${server.base}/api/v1/navigator/${seeded.navigatorId}/images/${seeded.backFrameId}/shapes`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(grid),
  });
  if (put.status !== 200) throw new Error(`seeding shapes: ${put.status} ${await put.text()}`);
  const context = await browser.context({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 });
  const signInPage = await context.newPage();
  await signIn(signInPage, server.base);
  await signInPage.close();
  const url = `${server.base}/dashboard/o/${seeded.orgId}/navigators/${seeded.navigatorId}/frames/${seeded.frameId}/shapes`;

  const ready: number[] = [];
  const firstShape: number[] = [];
  const saves: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // The front frame starts empty each run (the API's PUT, no If-Match).
    await fetch(`${server.base}/api/v1/navigator/${seeded.navigatorId}/images/${seeded.frameId}/shapes`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
      body: '[]',
    });
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url);
    await page.getByRole('application', { name: 'Shape editor' }).waitFor();
    ready.push(performance.now() - started);
    const corners = [
      { x: 100, y: 100 },
      { x: 400, y: 100 },
      { x: 400, y: 300 },
      { x: 100, y: 300 },
      { x: 100, y: 100 },
    ];
    for (const c of corners) {
      const at = await toScreen(page, c);
      await page.mouse.click(at.x, at.y);
    }
    await page
      .getByRole('status')
      .filter({ hasText: /^Shape closed/ })
      .waitFor();
    firstShape.push(performance.now() - started);
    await page.close(); // unsaved: closed without its beforeunload question

    const editor = await context.newPage();
    await editor.goto(url);
    await editor.getByRole('application', { name: 'Shape editor' }).waitFor();
    await editor.getByLabel('Frame to copy from').selectOption({ label: 'Back' });
    await editor.getByRole('button', { name: 'Copy shapes from' }).click();
    await editor
      .getByRole('status')
      .filter({ hasText: `Copied ${SHAPES} shapes from Back` })
      .waitFor();
    const saving = performance.now();
    await editor.getByRole('button', { name: 'Save shapes' }).click();
    await editor
      .getByRole('status')
      .filter({ hasText: `Saved ${SHAPES} shapes` })
      .waitFor();
    saves.push(performance.now() - saving);
    await editor.close();
  }
  const ms = (values: number[]) => Math.round(median(values));
  console.log(JSON.stringify({ measure: 'screen ready (navigation to the island mounted)', runs: RUNS, medianMs: ms(ready), all: ready.map(Math.round) }));
  console.log(JSON.stringify({ measure: 'first shape closed (navigation, 5 clicks)', runs: RUNS, medianMs: ms(firstShape), all: firstShape.map(Math.round) }));
  console.log(JSON.stringify({ measure: `save of ${SHAPES} shapes (click to "Saved")`, runs: RUNS, medianMs: ms(saves), all: saves.map(Math.round) }));
} finally {
  await browser.close();
  await server.stop();
}
