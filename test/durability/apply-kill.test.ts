import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { apply, projectDir, writes } from '../helpers/apply-run.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { type ServerProcesses, serverProcesses } from '../helpers/processes.js';

/**
 * `estate-publisher apply` against a server SIGKILLed half-way, then restarted (moved here from
 * test/integration/apply.test.ts: a durability test, by far that file's longest).
 */
describe(`estate-publisher apply while the server dies, on ${TEST_DATABASE}`, () => {
  let servers: ServerProcesses;
  let project: Awaited<ReturnType<typeof projectDir>>;

  beforeAll(async () => {
    servers = await serverProcesses('pps-apply-kill-', { ADMIN_TOKEN, LOG_LEVEL: 'warn' });
    project = await projectDir();
  }, 120_000);
  afterAll(async () => {
    await servers?.close();
    if (project) await rm(project.dir, { recursive: true, force: true });
  });

  it('stops with a clear message when the server is killed half-way; against the restarted server it converges with nothing twice', async () => {
    const first = await servers.start({ ready: true });
    const created = await fetch(`${first.url}/api/v1/admin/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Killed Developments' }),
    });
    const { apiKey } = (await created.json()) as { apiKey: string };

    let sent = 0;
    const cut = await apply(project.file, first.url, apiKey, {
      beforeRequest: async (request) => {
        if (request.method === 'GET' || ++sent !== 14) return;
        first.child.kill('SIGKILL');
        await first.exited;
      },
    });
    expect(cut.code).toBe(1);
    expect(cut.err).toMatch(/failed: could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(cut.err).toMatch(/\d+ of \d+ steps were applied and stay applied/);
    expect(cut.err).toContain('run apply again');
    expect(cut.out).toContain('✓ create estate harbour-view');

    const second = await servers.start({ ready: true });
    const resumed = await apply(project.file, second.url, apiKey);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).not.toContain('create estate');
    expect(resumed.out).not.toContain('upload asset');
    const quiet = await apply(project.file, second.url, apiKey);
    expect(quiet.out).toContain('No changes.');
    expect(writes(quiet)).toEqual([]);

    const read = async <T>(route: string) => (await (await fetch(`${second.url}${route}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as T;
    const estates = await read<Array<{ id: string; buildings: unknown[] }>>('/api/v1/estate');
    expect(estates).toHaveLength(1);
    expect(estates[0]?.buildings).toHaveLength(2);
    expect(await read<unknown[]>('/api/v1/asset')).toHaveLength(9);
    const gallery = await read<{ sections: Array<{ items: unknown[] }> }>(`/api/v1/estates/${estates[0]?.id}/gallery`);
    expect(gallery.sections.map((s) => s.items.length)).toEqual([2, 1]);
  }, 240_000);
});
