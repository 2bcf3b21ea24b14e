import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawCase, multipartCase, rawCase, truncatedCase } from '../fuzz/http-arbitraries.js';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { RawConnection } from '../helpers/raw-http.js';

/**
 * Property-based fuzzing below the JSON layer (issue 9): multipart upload bodies mutated at the
 * framing level, through the app; and raw HTTP/1.1 on real sockets (keep-alive sequences, pipelining,
 * framing errors, bodies cut short), where every request must get exactly one answer, or the
 * connection must be closed after an answer saying `Connection: close`. Properties: no 5xx, no hang,
 * errors in the spec shape, and afterwards every asset row has its file and every file its row.
 * FUZZ_MULTIPART_RUNS and FUZZ_RAW_RUNS scale the tiers (by default a share of FUZZ_RUNS when it is
 * set; 400 and 150 with CI=true, 100 and 40 for a local `npm test`); FUZZ_SEED replays a run.
 */
const BASE = process.env.FUZZ_RUNS === undefined ? undefined : Number(process.env.FUZZ_RUNS);
const CI = Boolean(process.env.CI);
const MULTIPART_RUNS = Number(process.env.FUZZ_MULTIPART_RUNS ?? (BASE === undefined ? (CI ? 400 : 100) : Math.ceil(BASE / 4)));
const RAW_RUNS = Number(process.env.FUZZ_RAW_RUNS ?? (BASE === undefined ? (CI ? 150 : 40) : Math.ceil(BASE / 10)));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** A connection that has neither answered nor closed after this long is a hang. */
const HANG_MS = 15_000;

describe('fuzzing uploads and raw HTTP', () => {
  let t: TestApp;
  let a: TestOrg;
  let port: number;
  let acknowledgedUploads = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_KEY_MAX: '100000000', RATE_LIMIT_ANONYMOUS_MAX: '100000000', RATE_LIMIT_INQUIRY_MAX: '100000000' } });
    a = await t.createOrg('Fuzz HTTP');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  const checkShape = (status: number, contentType: string | undefined, body: string, what: string) => {
    if (status >= 500) throw new Error(`${what} -> ${status} ${body.slice(0, 300)}`);
    if (status >= 400 && contentType?.includes('json')) {
      const parsed = JSON.parse(body) as { statusCode: unknown; message: unknown; error: unknown };
      if (parsed.statusCode !== status || typeof parsed.message !== 'string' || typeof parsed.error !== 'string') {
        throw new Error(`${what} -> ${status} with a body not in the error shape: ${body.slice(0, 300)}`);
      }
    }
  };

  it(
    'multipart bodies mutated at the framing level: never 5xx, errors in the spec shape',
    async () => {
      await fc.assert(
        fc.asyncProperty(multipartCase, async (c) => {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/v1/asset/upload',
            headers: { authorization: `Bearer ${a.key}`, 'content-type': c.contentType },
            payload: c.body,
          });
          if (res.statusCode === 201) acknowledgedUploads++;
          checkShape(res.statusCode, res.headers['content-type'] as string | undefined, res.body, `upload [${c.mutations.join(', ')}]`);
        }),
        { numRuns: MULTIPART_RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), verbose: 1 },
      );
    },
    MULTIPART_RUNS * 300 + 60_000,
  );

  /** Sends one sequence on one connection and checks every request got exactly one answer. */
  async function runSequence(cases: RawCase[], pipelined: boolean): Promise<void> {
    const c = await RawConnection.open(port);
    const n = cases.length;
    const describeSeq = () => `${pipelined ? 'pipelined' : 'one by one'}: ${cases.map((x) => x.label).join(' | ')}`;
    try {
      if (pipelined) {
        // A cut request goes last and alone: a client that closes its side while answers are pending
        // tells Node it no longer wants them (it aborts them), which is not what is tested here.
        const whole = cases.filter((x) => !x.truncated);
        c.write(
          Buffer.concat(whole.map((x) => x.bytes)),
          whole.map((x) => x.method),
        );
        await c.waitFor(whole.length, HANG_MS);
        const cut = cases.at(-1);
        if (cut?.truncated && !c.closed && c.responses.length === whole.length) {
          c.write(cut.bytes, [cut.method]);
          c.end();
          await c.waitFor(n, HANG_MS);
        }
      } else {
        for (let i = 0; i < n; i++) {
          c.write(cases[i]!.bytes, [cases[i]!.method]);
          if (cases[i]!.truncated) c.end();
          await c.waitFor(i + 1, HANG_MS);
          if (c.closed || c.responses.length < i + 1) break;
        }
      }
      const closeAt = c.responses.findIndex((r) => r.headers.connection?.toLowerCase() === 'close');
      if (closeAt >= 0 && !c.closed) await c.waitFor(Number.POSITIVE_INFINITY, HANG_MS);
      if (c.protocolError) throw new Error(`not HTTP from the server (${c.protocolError}); ${describeSeq()}`);
      if (c.responses.length > n) throw new Error(`${c.responses.length} answers to ${n} requests; ${describeSeq()}`);
      c.responses.forEach((r, i) => {
        checkShape(r.status, r.headers['content-type'], r.body.toString(), `${cases[i]?.label} (${describeSeq()})`);
        if (r.status === 201 && /"mimeType"/.test(r.body.toString())) acknowledgedUploads++;
      });
      if (closeAt >= 0) {
        if (c.responses.length !== closeAt + 1) throw new Error(`answers after Connection: close; ${describeSeq()}`);
        if (!c.closed) throw new Error(`said Connection: close but kept the connection open; ${describeSeq()}`);
        return;
      }
      if (c.responses.length === n) return;
      // A server may close a connection whose bytes stopped being HTTP (RFC 9112 9.3.1: the client
      // retries what was not answered), but only then: a malformed or cut request must come first.
      const broken = cases.slice(0, c.responses.length + 1).some((x) => x.truncated || x.malformed);
      if (broken && c.closed) return;
      throw new Error(
        `${c.closed ? 'connection closed' : `no answer within ${HANG_MS} ms`} after ${c.responses.length} of ${n} answers ` +
          `(statuses ${c.responses.map((r) => r.status).join(',')}); ${describeSeq()}`,
      );
    } finally {
      c.close();
    }
  }

  it(
    'raw keep-alive sequences, pipelining and framing errors: every request gets exactly one answer, no hang',
    async () => {
      const sequence = fc.record({
        cases: fc
          .tuple(fc.array(rawCase(a.key), { minLength: 1, maxLength: 4 }), fc.option(truncatedCase(a.key), { freq: 6 }))
          .map(([cs, cut]) => (cut ? [...cs, cut] : cs)),
        pipelined: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(sequence, ({ cases, pipelined }) => runSequence(cases, pipelined)),
        { numRuns: RAW_RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), verbose: 1 },
      );
    },
    RAW_RUNS * 2 * HANG_MS + 30_000,
  );

  it('leaves every asset row with its file and no file without its row', async () => {
    const rows = await t.db.query<{ storage_key: string }>('SELECT storage_key FROM assets');
    expect(rows.length).toBe(acknowledgedUploads);
    const root = path.join(t.dataDir, 'files');
    const files = async () =>
      (await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []))
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
        .sort();
    // An upload whose client went away is still being unwound by the server when the client moves on
    // (its partial file removed once the request ends); on a loaded host that can come after the last
    // answer. A file left for good still fails here.
    await expect.poll(files, { timeout: 10_000, interval: 200 }).toEqual(rows.map((r) => r.storage_key).sort());
  });
});
