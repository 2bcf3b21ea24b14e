import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.js';
import { REPORT_DIR } from './page-kit.js';
import { type Seeded, seedEstate } from './seed.js';
import { type PageServer, startPageServer } from './server.js';

// Lighthouse 12 (lighthouse@12.2.3, pinned: the last line that runs on Node 20) in its default mode:
// mobile, a Moto G Power's screen, simulated slow 4G and a 4x slower CPU (less on a host already slower
// than a desktop, see below). The page of the seeded estate
// must score performance >= 95 and accessibility, best practices and SEO 100. The report (HTML and
// JSON) of each run and a summary (medians, LCP) go to the report folder; docs/performance.md records them.

/** The benchmarkIndex of a low-tier phone (Moto G Power), as Chrome DevTools' CPU calibration takes it. */
const LOW_TIER_BENCHMARK_INDEX = 264;

let server: PageServer;
let seeded: Seeded;
let chrome: ChildProcess;
let profile: string;
let port: number;

beforeAll(async () => {
  server = await startPageServer();
  seeded = await seedEstate(server.base);
  profile = mkdtempSync(path.join(os.tmpdir(), 'pps-lighthouse-'));
  chrome = spawn(CHROMIUM, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  port = await new Promise<number>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start: ${err}`)), 30_000);
    chrome.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    chrome.once('exit', (code) => reject(new Error(`chromium exited ${code}: ${err}`)));
  });
});
afterAll(async () => {
  if (chrome && chrome.exitCode === null) {
    const exited = new Promise((r) => chrome.once('exit', r));
    chrome.kill('SIGTERM');
    await exited;
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.stop();
});

type Run = {
  host: Record<string, number | undefined>;
  scores: Record<string, number>;
  metrics: Record<string, number | undefined>;
  failing: string[];
};

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** Lighthouse's measure of this host, from the last run (the first page's warm-up run sets it). */
let benchmarkIndex = 0;
let throttling: Record<string, unknown> | undefined;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * `runs` measured Lighthouse runs of `url` (after a warm-up run when `warm`), each run's reports as
 * `{name}-{n}.html|json` and the medians as `{name}-summary.json` in the report folder; returns the medians
 * and what failed. Every run's TBT is printed (the performance score on this shared host is mostly TBT).
 */
async function audit(url: string, name: string, runsWanted: number, warm: boolean) {
  if (warm || !throttling) {
    // A first run warms the server and the browser and measures this host (Lighthouse's benchmarkIndex).
    const first = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
    throttling = first!.lhr.configSettings.throttling;
    benchmarkIndex = first!.lhr.environment.benchmarkIndex;
  } else {
    // The server's kept variant and the browser's cache of the page's assets, without a full run.
    expect((await fetch(url)).status).toBe(200);
  }
  const runs: Run[] = [];
  let meta: Record<string, unknown> = {};
  for (let i = 0; i < runsWanted; i++) {
    // The default 4x CPU slowdown assumes a desktop-class host (benchmarkIndex about 1,000 or more) and
    // then emulates a low-tier phone (DevTools' CPU calibration puts a Moto G Power at 264). A host already
    // slower than that (a 2-core machine shared with other test suites scores 200-600) gets the slowdown
    // that brings it to that phone, never more than 4x and never less than 1x: the same target device.
    const cpuSlowdownMultiplier = Math.round(Math.min(4, Math.max(1, benchmarkIndex / LOW_TIER_BENCHMARK_INDEX)) * 100) / 100;
    throttling = { ...throttling, cpuSlowdownMultiplier };
    const result = await lighthouse(url, {
      port,
      output: ['html', 'json'],
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      throttling,
    });
    expect(result).toBeDefined();
    const { lhr, report } = result!;
    const [html, json] = report as string[];
    writeFileSync(path.join(REPORT_DIR, `${name}-${i + 1}.html`), html!);
    writeFileSync(path.join(REPORT_DIR, `${name}-${i + 1}.json`), json!);
    benchmarkIndex = lhr.environment.benchmarkIndex;
    const metric = (id: string) => lhr.audits[id]?.numericValue;
    meta = {
      url,
      lighthouseVersion: lhr.lighthouseVersion,
      userAgent: lhr.environment.hostUserAgent,
      formFactor: lhr.configSettings.formFactor,
      throttlingMethod: lhr.configSettings.throttlingMethod,
    };
    runs.push({
      host: { benchmarkIndex: lhr.environment.benchmarkIndex, cpuSlowdownMultiplier: lhr.configSettings.throttling.cpuSlowdownMultiplier },
      scores: Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)])),
      metrics: {
        largestContentfulPaintMs: metric('largest-contentful-paint'),
        firstContentfulPaintMs: metric('first-contentful-paint'),
        totalBlockingTimeMs: metric('total-blocking-time'),
        cumulativeLayoutShift: metric('cumulative-layout-shift'),
        speedIndexMs: metric('speed-index'),
        transferredBytes: metric('total-byte-weight'),
      },
      // What failed, by name, when a category is below its mark.
      failing: Object.values(lhr.categories).flatMap((c) =>
        c.auditRefs
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c.id}: ${ref.id} (${lhr.audits[ref.id]?.score}) ${lhr.audits[ref.id]?.displayValue ?? ''}`),
      ),
    });
  }
  const pick = <K extends 'scores' | 'metrics'>(k: K) =>
    Object.fromEntries(Object.keys(runs[0]![k]).map((id) => [id, median(runs.map((r) => (r[k] as Record<string, number>)[id] ?? Number.NaN))]));
  const scores = pick('scores');
  const summary = {
    ...meta,
    runs: runs.length,
    medianScores: scores,
    medianMetrics: pick('metrics'),
    totalBlockingTimeMsEachRun: runs.map((r) => r.metrics.totalBlockingTimeMs),
    each: runs.map((r) => ({ ...r.host, ...r.scores, ...r.metrics })),
  };
  writeFileSync(path.join(REPORT_DIR, `${name}-summary.json`), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${name}: ${JSON.stringify(summary)}\n`);
  return { scores, failing: [...new Set(runs.flatMap((r) => r.failing))].join('\n') };
}

function expectMarks({ scores, failing }: Awaited<ReturnType<typeof audit>>) {
  expect(scores.performance, failing).toBeGreaterThanOrEqual(95);
  expect({ accessibility: scores.accessibility, 'best-practices': scores['best-practices'], seo: scores.seo }, failing).toEqual({
    accessibility: 100,
    'best-practices': 100,
    seo: 100,
  });
}

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

describe('Lighthouse (mobile)', () => {
  it('the page: performance >= 95; accessibility, best practices and SEO 100 (medians of LIGHTHOUSE_RUNS runs, default 3)', async () => {
    expectMarks(await audit(`${server.base}/p/${seeded.slug}`, 'lighthouse', RUNS, true));
  });

  it("a home's page (a home with a floor plan): the same marks, the host measured by the runs before", async () => {
    // The first seeded home: ACTIVE, its price shown, a floor plan. No second warm-up run: the browser and
    // the server are warm and the host already measured; a plain request makes the server keep the variant.
    const home = seeded.apartments[0]!;
    expectMarks(await audit(`${server.base}/p/${seeded.slug}/homes/${home.id}`, 'lighthouse-home', RUNS, false));
  });
});
