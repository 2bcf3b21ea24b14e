import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { sweepOrphans } from '../../src/modules/assets/orphans.js';
import { createTestApp } from '../helpers/app.js';
import { type Driver, diskDriver, multipart, png, s3Driver } from './assets-fixtures.js';

const drivers: Array<() => Promise<Driver>> = [async () => diskDriver(), s3Driver];

describe.each(drivers.map((make) => [make]))('orphan sweep (%#: disk, s3)', (makeDriver) => {
  let driver: Driver;
  afterAll(async () => driver?.stop());

  it('removes objects without a row and partial writes, keeps every asset', async () => {
    driver = await makeDriver();
    const t = await createTestApp({ storage: driver.make });
    try {
      const org = await t.createOrg();
      const upload = multipart({ filename: 'kept.png', type: 'image/png', data: png() });
      const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
      expect(res.statusCode).toBe(201);
      const kept = res.json() as { id: string };

      // What a process killed between storing the bytes and inserting the row leaves behind.
      const orphanKey = `${org.id}/${newId()}`;
      await t.storage.put(orphanKey, Readable.from([Buffer.from('orphan bytes')]), 'application/octet-stream');
      if (driver.name === 'disk') {
        await mkdir(path.join(t.dataDir, 'files', '.tmp'), { recursive: true });
        await writeFile(path.join(t.dataDir, 'files', '.tmp', 'interrupted-upload'), 'half a file');
      }

      const swept = await sweepOrphans(t.db, t.storage, new Date(Date.now() + 60_000));
      expect(swept.objects).toBe(1);
      if (driver.name === 'disk') expect(swept.temporary).toBe(1);
      expect(await t.storage.stat(orphanKey)).toBeUndefined();
      const file = await t.request({ method: 'GET', url: `/files/${org.id}/${kept.id}` });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(png())).toBe(true);

      // Objects younger than the cut-off are left alone: they may be uploads still running elsewhere.
      const young = `${org.id}/${newId()}`;
      await t.storage.put(young, Readable.from([Buffer.from('in flight')]), 'application/octet-stream');
      expect((await sweepOrphans(t.db, t.storage, new Date(Date.now() - 60_000))).objects).toBe(0);
      expect(await t.storage.stat(young)).toBeDefined();
    } finally {
      await t.close();
    }
  });
});

describe('storage that cannot be written', () => {
  it('fails an upload with 503 in the error shape, keeps no row, and readiness reports it', async () => {
    const t = await createTestApp();
    try {
      const org = await t.createOrg();
      // A plain file where the files directory should be: every write under it fails (ENOTDIR),
      // a real disk fault that root's permissions cannot bypass.
      await rm(path.join(t.dataDir, 'files'), { recursive: true, force: true });
      await writeFile(path.join(t.dataDir, 'files'), 'not a directory');
      const upload = multipart({ filename: 'a.png', type: 'image/png', data: png() });
      const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/storage/i), error: 'Service Unavailable' });
      expect(res.body).not.toMatch(/ENOTDIR|\/tmp\//);
      const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assets');
      expect(rows[0]!.n).toBe(0);
      const ready = await t.request({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.storage).toBe('unavailable');
    } finally {
      await rm(path.join(t.dataDir, 'files'), { force: true });
      await t.close();
    }
  });
});
