import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobRange, BlobStat, BlobStore } from './blob-store.js';

const SAFE_KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;
/** The ownership stamp at the root of the files directory (a dot file: never a key). */
const STAMP_FILE = '.pps-storage.json';

/** Local disk under DATA_DIR/files. Writes go to a temp file renamed into place, so a reader never sees half a file. */
export class DiskBlobStore implements BlobStore {
  readonly driver = 'disk' as const;
  constructor(private readonly root: string) {}

  /** Keys are service-made; anything else is refused so no client text ever becomes a path. */
  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Unsafe storage key: ${key}`);
    return full;
  }

  async put(key: string, body: Readable): Promise<BlobStat> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(this.root, '.tmp', randomUUID());
    await mkdir(path.dirname(tmp), { recursive: true });
    try {
      await pipeline(body, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: (await stat(target)).size };
  }

  async get(key: string, range?: BlobRange): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file); // rejects with ENOENT before a stream is handed out
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    try {
      return { size: (await stat(this.pathOf(key))).size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async check(): Promise<void> {
    const probe = path.join(this.root, '.tmp', `ready-${randomUUID()}`);
    await mkdir(path.dirname(probe), { recursive: true });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  }

  publicUrl(): string | undefined {
    return undefined;
  }

  describe(): string {
    return path.resolve(this.root);
  }

  async readStamp(): Promise<string | undefined> {
    try {
      return await readFile(path.join(this.root, STAMP_FILE), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Exclusive create: of two processes stamping at once, one writes and the other reads what it wrote. */
  async writeStamp(text: string): Promise<boolean> {
    await mkdir(this.root, { recursive: true });
    try {
      await writeFile(path.join(this.root, STAMP_FILE), text, { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    let entries: string[];
    try {
      entries = (await readdir(this.root, { recursive: true })) as string[];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const relative of entries) {
      const key = relative.split(path.sep).join('/');
      if (!SAFE_KEY.test(key)) continue; // .tmp and anything the service did not write
      const info = await stat(path.join(this.root, relative)).catch(() => undefined);
      if (info?.isFile()) yield { key, modifiedAt: info.mtime };
    }
  }

  async purgeTemporary(olderThan: Date): Promise<number> {
    const dir = path.join(this.root, '.tmp');
    let removed = 0;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtime < olderThan) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
