import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { storageIntents } from '../../src/modules/assets/intents.js';
import { sweepOrphans } from '../../src/modules/assets/orphans.js';
import { createTestApp } from '../helpers/app.js';
import { type Driver, diskDriver, multipart, png, s3Driver } from './assets-fixtures.js';

const drivers: Array<() => Promise<Driver>> = [async () => diskDriver(), s3Driver];

describe.each(drivers.map((make) => [make]))('orphan sweep (%#: disk, s3)', (makeDriver) => {
  let driver: Driver;
  afterAll(async () => driver?.stop());

  it('removes only what the outbox names without a row (and partial writes); keeps every asset and every unrecorded file', async () => {
    driver = await makeDriver();
    const t = await createTestApp({ storage: driver.make });
    try {
      const org = await t.createOrg();
      const upload = multipart({ filename: 'kept.png', type: 'image/png', data: png() });
      const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
      expect(res.statusCode).toBe(201);
      const kept = res.json() as { id: string };
      // The upload's row settled its intent in the same statement.
      expect(await t.db.query('SELECT * FROM storage_intents')).toEqual([]);

      // What a process killed between storing the bytes and inserting the row leaves behind: the intent and the object.
      const orphanKey = `${org.id}/${newId()}`;
      await storageIntents.record(t.db, orphanKey);
      await t.storage.put(orphanKey, Readable.from([Buffer.from('orphan bytes')]), 'application/octet-stream');
      // A file this database never recorded: another database's on the same storage, or one from before the outbox.
      const stranger = `${newId()}/${newId()}`;
      await t.storage.put(stranger, Readable.from([Buffer.from('not ours')]), 'application/octet-stream');
      // An intent whose row committed (a variant job that died after its finish): only the intent goes.
      await storageIntents.record(t.db, `${org.id}/${kept.id}`);
      if (driver.name === 'disk') {
        await mkdir(path.join(t.dataDir, 'files', '.tmp'), { recursive: true });
        await writeFile(path.join(t.dataDir, 'files', '.tmp', 'interrupted-upload'), 'half a file');
      }

      const swept = await sweepOrphans(t.db, t.storage, new Date(Date.now() + 60_000));
      expect(swept.objects).toBe(1);
      if (driver.name === 'disk') expect(swept.temporary).toBe(1);
      expect(await t.storage.stat(orphanKey)).toBeUndefined();
      expect(await t.storage.stat(stranger)).toBeDefined();
      expect(await t.db.query('SELECT * FROM storage_intents')).toEqual([]);
      const file = await t.request({ method: 'GET', url: `/files/${org.id}/${kept.id}` });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(png())).toBe(true);

      // Intents younger than the cut-off are left alone: they may be uploads still running elsewhere.
      const young = `${org.id}/${newId()}`;
      await storageIntents.record(t.db, young);
      await t.storage.put(young, Readable.from([Buffer.from('in flight')]), 'application/octet-stream');
      expect((await sweepOrphans(t.db, t.storage, new Date(Date.now() - 60_000))).objects).toBe(0);
      expect(await t.storage.stat(young)).toBeDefined();
      expect(await t.db.query('SELECT * FROM storage_intents')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('a delete whose store fails keeps its intent; the sweep then removes the file and its variants', async () => {
    const t = await createTestApp({ storage: driver.make });
    try {
      const org = await t.createOrg();
      const upload = multipart({ filename: 'gone.png', type: 'image/png', data: png() });
      const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body: upload.body, headers: upload.headers });
      const asset = res.json() as { id: string };
      const key = `${org.id}/${asset.id}`;
      const variant = `${key}-w320`;
      await t.storage.put(variant, Readable.from([Buffer.from('variant')]), 'image/webp');
      const realDelete = t.storage.delete.bind(t.storage);
      t.storage.delete = async () => {
        throw new Error('store down');
      };
      try {
        expect((await t.request({ method: 'DELETE', url: `/api/v1/asset/${asset.id}`, key: org.key })).statusCode).toBe(204);
      } finally {
        t.storage.delete = realDelete;
      }
      expect(await t.storage.stat(key)).toBeDefined();
      expect(await t.db.query<{ storage_key: string }>('SELECT storage_key FROM storage_intents')).toEqual([{ storage_key: key }]);
      expect((await sweepOrphans(t.db, t.storage, new Date(Date.now() + 60_000))).objects).toBe(1);
      expect(await t.storage.stat(key)).toBeUndefined();
      expect(await t.storage.stat(variant)).toBeUndefined();
      expect(await t.db.query('SELECT * FROM storage_intents')).toEqual([]);
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
