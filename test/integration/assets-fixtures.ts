import type { Dirent } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import type { BlobRange, BlobStat, BlobStore } from '../../src/storage/blob-store.js';
import { DiskBlobStore } from '../../src/storage/disk.js';
import { S3BlobStore, type S3StoreOptions } from '../../src/storage/s3.js';
import type { TestApp } from '../helpers/app.js';

// --- small real files, built the way their formats define them ---------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid 1×1 RGB PNG. */
export function png(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const jpeg = () =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
    Buffer.from([0xff, 0xd9]),
  ]);

export function mp4(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isommp41', 'latin1')]);
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 0x10]), Buffer.from('mdat', 'latin1'), Buffer.alloc(8)]);
  return Buffer.concat([ftyp, mdat]);
}

export const pdf = () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** A valid ZIP with one stored entry. */
export function zip(): Buffer {
  const name = Buffer.from('readme.txt');
  const data = Buffer.from('hello zip\n');
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

export const dwg = () => Buffer.concat([Buffer.from('AC1032', 'latin1'), Buffer.alloc(122, 0)]);
export const dxf = () => Buffer.from('  0\nSECTION\n  2\nHEADER\n  9\n$ACADVER\n  1\nAC1032\n  0\nENDSEC\n  0\nEOF\n');
export const csv = () => Buffer.from('name,price\nA1,100000\nA2,120000\n');
export const svg = () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');

// --- multipart ---------------------------------------------------------------------------------

export interface Part {
  field?: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body with optional text fields (sent first) and one file. */
export function multipart(file: Part, fields: Record<string, string> = {}): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----pps${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  pieces.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(pieces), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

// --- storage drivers under test -----------------------------------------------------------------

/** A real store wrapped to tell the test when a put has settled (no behaviour is replaced). */
export class ObservedStore implements BlobStore {
  readonly puts: Array<Promise<'stored' | 'failed'>> = [];
  private started: Array<() => void> = [];
  constructor(readonly inner: BlobStore) {}
  get driver() {
    return this.inner.driver;
  }
  /** Resolves when the next put begins. */
  nextPut(): Promise<void> {
    return new Promise((resolve) => this.started.push(resolve));
  }
  put(key: string, body: Readable, contentType: string): Promise<BlobStat> {
    const p = this.inner.put(key, body, contentType);
    this.puts.push(
      p.then(
        () => 'stored' as const,
        () => 'failed' as const,
      ),
    );
    for (const r of this.started.splice(0)) r();
    return p;
  }
  get(key: string, range?: BlobRange) {
    return this.inner.get(key, range);
  }
  stat(key: string) {
    return this.inner.stat(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  check() {
    return this.inner.check();
  }
  publicUrl(key: string) {
    return this.inner.publicUrl(key);
  }
  list() {
    return this.inner.list();
  }
  purgeTemporary(olderThan: Date) {
    return this.inner.purgeTemporary(olderThan);
  }
  describe() {
    return this.inner.describe();
  }
  readStamp() {
    return this.inner.readStamp();
  }
  writeStamp(text: string) {
    return this.inner.writeStamp(text);
  }
}

type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void> };
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

export interface Driver {
  name: 'disk' | 's3';
  /** The storage factory for createTestApp. */
  make: (dataDir: string) => ObservedStore;
  /** Where the bucket itself serves objects (S3 only): the S3_PUBLIC_URL a deployment would set. */
  bucketUrl?: string;
  /** Another store on the same bucket whose keys are all under `prefix` (S3 only: S3_PREFIX). */
  makePrefixed?: (prefix: string) => ObservedStore;
  /** Every object key in the store, plus leftovers of interrupted writes. */
  listAll: (dataDir: string) => Promise<string[]>;
  stop: () => Promise<void>;
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

export function diskDriver(): Driver {
  return {
    name: 'disk',
    make: (dataDir) => new ObservedStore(new DiskBlobStore(path.join(dataDir, 'files'))),
    listAll: (dataDir) => walk(path.join(dataDir, 'files')),
    stop: async () => undefined,
  };
}

/** S3 store options for the s3rver of these tests (its bucket `assets`, its fixed credentials) at `endpoint`. */
export const s3rverOptions = (endpoint: string): S3StoreOptions => ({
  bucket: 'assets',
  region: 'us-east-1',
  endpoint,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  publicBaseUrl: undefined,
});

/** A real S3-protocol server (s3rver) on a random loopback port with its own temp directory. */
export async function s3Driver(): Promise<Driver> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pps-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: 'assets', configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const options = s3rverOptions(endpoint);
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const stores: S3BlobStore[] = [];
  return {
    name: 's3',
    bucketUrl: `${endpoint}/assets`,
    make: () => {
      const store = new S3BlobStore(options);
      stores.push(store);
      return new ObservedStore(store);
    },
    makePrefixed: (prefix) => {
      const store = new S3BlobStore({ ...options, prefix });
      stores.push(store);
      return new ObservedStore(store);
    },
    listAll: async () => {
      const out = await client.send(new ListObjectsV2Command({ Bucket: 'assets' }));
      const uploads = await walk(path.join(dir, 'assets')).then((files) => files.filter((f) => f.includes('multipart')));
      return [...(out.Contents ?? []).map((o) => o.Key!), ...uploads];
    },
    stop: async () => {
      for (const s of stores) s.close();
      client.destroy();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Upload an image and read it back once its variant job has run, for the image tests. `context` is read
 * at each call (the app and key are made in beforeAll).
 */
export function imageUploads<A>(context: () => { t: TestApp; key: string }) {
  return {
    async upload(filename: string, type: string, data: Buffer): Promise<A> {
      const { t, key } = context();
      const { body, headers } = multipart({ filename, type, data });
      const res = await t.request({ method: 'POST', url: '/api/v1/asset/upload', key, body, headers });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as A;
    },
    /** The asset once its variant job has run (the processor's queue is empty and the row is no longer pending). */
    async settled(id: string): Promise<A> {
      const { t, key } = context();
      // The job is queued by the upload's onResponse hook, which may run after inject() resolved.
      for (;;) {
        await t.app.services.assets.images.idle();
        const [row] = await t.db.query<{ state: string | null }>('SELECT image_state AS state FROM assets WHERE id = $1', [id]);
        if (row?.state !== 'pending') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const res = await t.request({ method: 'GET', url: `/api/v1/asset/${id}`, key });
      expect(res.statusCode).toBe(200);
      return res.json() as A;
    },
  };
}
