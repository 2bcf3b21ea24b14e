import { afterAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/storage/s3.js';
import { StorageOwnershipError, claimStorage, databaseId } from '../../src/storage/stamp.js';
import { type TestApp, createTestApp } from '../helpers/app.js';
import { type Driver, diskDriver, multipart, png, s3Driver, s3rverOptions } from './assets-fixtures.js';

const drivers: Array<() => Promise<Driver>> = [async () => diskDriver(), s3Driver];

const uploadTo = async (t: TestApp) => {
  const org = await t.createOrg();
  const { body, headers } = multipart({ filename: 'a.png', type: 'image/png', data: png() });
  const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key: org.key, body, headers });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
};
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(StorageOwnershipError);
      return (err as Error).message;
    },
  );

/**
 * The storage stamp on both drivers (issue 25, item 1): the first database to use a storage stamps it;
 * another database is refused with both named; storage from before stamps is adopted only by a
 * database whose files are in it. The server-process version of the engine switch is engine-switch.test.ts.
 */
describe.each(drivers.map((make) => [make]))('storage stamp (%#: disk, s3)', (makeDriver) => {
  const open: TestApp[] = [];
  const drivers: Driver[] = [];
  afterAll(async () => {
    for (const t of open) await t.close();
    for (const d of drivers) await d.stop();
  });
  const fresh = async () => {
    const driver = await makeDriver();
    drivers.push(driver);
    const owner = await createTestApp({ storage: driver.make });
    open.push(owner);
    // A second database on the very same storage (the same directory, the same bucket).
    const other = await createTestApp({ storage: () => owner.storage });
    open.push(other);
    return { owner, other };
  };
  it('stamps empty storage for its database, goes on for it, refuses another naming both, touches no file', async () => {
    const { owner, other } = await fresh();
    expect(await claimStorage(owner.db, owner.storage, 'database one')).toBe('stamped');
    expect(await claimStorage(owner.db, owner.storage, 'database one')).toBe('owned');
    const stamp = JSON.parse((await owner.storage.readStamp())!) as { databaseId: string; database: string };
    expect(stamp).toMatchObject({ databaseId: await databaseId(owner.db), database: 'database one' });
    const asset = await uploadTo(owner);

    const message = await refusal(claimStorage(other.db, other.storage, 'database two'));
    expect(message).toContain('belongs to another database: database one');
    expect(message).toContain(await databaseId(owner.db));
    expect(message).toContain("this server's database is database two");
    expect(message).toContain(await databaseId(other.db));
    expect(
      await owner.storage.stat(`${(await owner.db.query<{ k: string }>('SELECT storage_key AS k FROM assets WHERE id = $1', [asset.id]))[0]!.k}`),
    ).toBeDefined();
    // The refusal wrote nothing: the owner still goes on.
    expect(await claimStorage(owner.db, owner.storage, 'database one')).toBe('owned');
  });

  it('storage from before stamps: refused by a database none of whose files are there, adopted by the one whose are', async () => {
    const { owner, other } = await fresh();
    await uploadTo(owner); // written with no stamp, as every file before this version
    expect(await owner.storage.readStamp()).toBeUndefined();
    const message = await refusal(claimStorage(other.db, other.storage, 'database two'));
    expect(message).toContain('written before storage stamps');
    expect(await owner.storage.readStamp()).toBeUndefined();
    // The other database with assets of its own, none of them here, is refused just the same.
    const elsewhere = await createTestApp();
    open.push(elsewhere);
    await uploadTo(elsewhere);
    await refusal(claimStorage(elsewhere.db, owner.storage, 'database three'));

    expect(await claimStorage(owner.db, owner.storage, 'database one')).toBe('adopted');
    expect(await refusal(claimStorage(other.db, other.storage, 'database two'))).toContain('belongs to another database: database one');
  });

  it('an unreadable stamp stops the start instead of being overwritten', async () => {
    const { owner } = await fresh();
    expect(await owner.storage.writeStamp('not json')).toBe(true);
    expect(await owner.storage.writeStamp('{"databaseId":"x"}')).toBe(false);
    expect(await refusal(claimStorage(owner.db, owner.storage, 'database one'))).toContain('cannot be read');
    expect(await owner.storage.readStamp()).toBe('not json');
  });
});

/** S3_PREFIX (a directory on disk is already one database's): one bucket, a prefix per database. */
describe('storage stamp under an S3 key prefix', () => {
  const open: TestApp[] = [];
  const drivers: Driver[] = [];
  afterAll(async () => {
    for (const t of open) await t.close();
    for (const d of drivers) await d.stop();
  });
  it('S3_PREFIX: databases under different prefixes of one bucket each stamp and use their own; the same prefix is refused', async () => {
    const driver = await s3Driver();
    drivers.push(driver);
    const one = await createTestApp({ storage: () => driver.makePrefixed!('estates/one/') });
    const two = await createTestApp({ storage: () => driver.makePrefixed!('estates/two/') });
    const again = await createTestApp({ storage: () => driver.makePrefixed!('estates/one/') });
    open.push(one, two, again);
    expect(await claimStorage(one.db, one.storage, 'database one')).toBe('stamped');
    expect(await claimStorage(two.db, two.storage, 'database two')).toBe('stamped');
    const [a, b] = [await uploadTo(one), await uploadTo(two)];
    const keys = await driver.listAll('');
    expect(keys).toContain('estates/one/.pps-storage.json');
    expect(keys).toContain('estates/two/.pps-storage.json');
    const keyOf = async (t: TestApp, id: string) => (await t.db.query<{ k: string }>('SELECT storage_key AS k FROM assets WHERE id = $1', [id]))[0]!.k;
    expect(keys).toContain(`estates/one/${await keyOf(one, a.id)}`);
    expect(keys).toContain(`estates/two/${await keyOf(two, b.id)}`);
    expect(keys.every((k) => k.startsWith('estates/'))).toBe(true);
    // Each lists (and so could ever sweep) only its own prefix; each serves its own file.
    const listed = async (t: TestApp) => {
      const out: string[] = [];
      for await (const o of t.storage.list()) out.push(o.key);
      return out;
    };
    expect(await listed(one)).toEqual([await keyOf(one, a.id)]);
    expect(await listed(two)).toEqual([await keyOf(two, b.id)]);
    expect(one.storage.describe()).toContain('/estates/one/');
    // S3_PUBLIC_URL links point under the prefix too.
    const linked = new S3BlobStore({ ...s3rverOptions('http://127.0.0.1:9'), publicBaseUrl: 'https://cdn.example', prefix: 'estates/one/' });
    expect(linked.publicUrl('org/asset')).toBe('https://cdn.example/estates/one/org/asset');
    linked.close();
    // A third database on a prefix already stamped is refused, naming the owner.
    expect(await refusal(claimStorage(again.db, again.storage, 'database three'))).toContain('belongs to another database: database one');
  });
});
