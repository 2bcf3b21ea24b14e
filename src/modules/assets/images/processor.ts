import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import PQueue from 'p-queue';
import { boundWork } from '../../../db/bound-work.js';
import type { Database } from '../../../db/client.js';
import { json } from '../../../db/query.js';
import { inWriteScope } from '../../../db/write-scope.js';
import { AppError } from '../../../errors.js';
import type { BlobStore } from '../../../storage/blob-store.js';
import { touchAddonsShowingAsset } from '../../addons/asset-references.js';
import { storageIntents } from '../intents.js';
import { assetsRepository as repo } from '../repository.js';
import { VARIANT_WIDTHS } from '../schemas.js';
import { type RenderedImage, renderImage } from './render.js';
import { variantKey } from './variant-keys.js';

/** Pending images read per batch when resuming after a start. */
const RESUME_BATCH = 200;
/** An on-demand request (a variant URL asked for before it was made) goes ahead of background work. */
const URGENT = 1;
/** Longest a variant request waits for its image's job (queued or running) before a 503 with Retry-After. */
const VARIANT_WAIT_MS = 20_000;
/** Event-loop utilisation above which a background job pauses between steps: requests are being served. */
const BUSY_LOOP = 0.5;
/** Longest pause between two steps of a background job. */
const MAX_PAUSE_MS = 1_000;

export interface ImageProcessorOptions {
  /**
   * Whether uploads queue their job and the start resumes pending ones. Off, images stay pending
   * until a variant URL is requested (tests of the crash-resume and on-demand paths use it).
   */
  background: boolean;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Makes images' variants and placeholder after their upload answered. The durable record of the work
 * is the asset row's `image_state = 'pending'`, written by the insert that records the upload; a
 * process that dies before a job ran leaves it pending, and the next start (or the first request of a
 * variant URL, on any instance) makes it. One job at a time: libvips works on one image with one
 * thread, so the other core keeps serving requests, and memory is bounded by one image.
 */
export class ImageProcessor {
  private readonly queue = new PQueue({ concurrency: 1 });
  /** Jobs queued or running, by asset id: a second ask for the same asset joins the first. */
  private readonly jobs = new Map<string, Promise<void>>();
  /** Jobs under way (out of the queue): their priority can no longer change; a request just waits. */
  private readonly running = new Set<string>();
  private closed = false;
  /** Assets requests are waiting for (how many): their jobs do not pause for other requests. */
  private readonly awaited = new Map<string, number>();
  private loop: EventLoopUtilization = performance.eventLoopUtilization();
  private stepStarted = performance.now();

  constructor(
    private readonly db: Database,
    private readonly storage: BlobStore,
    private readonly log: FastifyBaseLogger,
    private readonly options: ImageProcessorOptions,
  ) {}

  /** After an upload committed: make the variants in the background (unless background work is off). */
  enqueue(organizationId: string, id: string): void {
    if (!this.options.background) return;
    void this.run(organizationId, id, 0).catch(() => undefined);
  }

  /**
   * Makes the asset's variants now (ahead of background work), or waits for the job already under way
   * (queued or running), up to `deadlineMs`: past it, a 503 with Retry-After (the job goes on).
   */
  async ensure(organizationId: string, id: string, deadlineMs = VARIANT_WAIT_MS): Promise<void> {
    this.awaited.set(id, (this.awaited.get(id) ?? 0) + 1);
    const timer = new AbortController();
    try {
      await Promise.race([
        this.run(organizationId, id, URGENT),
        sleep(deadlineMs, undefined, { signal: timer.signal }).then(() => {
          throw new AppError('unavailable', 'This image variant is still being made; retry in a few seconds');
        }),
      ]);
    } catch (err) {
      // A job that failed for the store leaves the image pending: the store is unavailable, not the request wrong.
      if (err instanceof AppError) throw err;
      throw new AppError('unavailable', 'This image variant cannot be made now (file storage unavailable); retry later');
    } finally {
      timer.abort();
      const left = (this.awaited.get(id) ?? 1) - 1;
      if (left > 0) this.awaited.set(id, left);
      else this.awaited.delete(id);
    }
  }

  /** Queues every image left pending (a crash, a shutdown mid-job). Resolves when all are queued. */
  async resume(): Promise<number> {
    if (!this.options.background) return 0;
    let queued = 0;
    // A job that failed for the store (it stays pending) is not tried again by this resume.
    const tried = new Set<string>();
    for (;;) {
      const batch = await repo.pendingImages(this.db, RESUME_BATCH);
      const fresh = batch.filter((a) => !this.jobs.has(a.id) && !tried.has(a.id));
      for (const { organizationId, id } of fresh) {
        tried.add(id);
        this.enqueue(organizationId, id);
      }
      queued += fresh.length;
      if (batch.length < RESUME_BATCH || fresh.length === 0 || this.closed) break;
      // Wait for this batch before reading the next, so the queue never holds more than one batch.
      await this.queue.onIdle();
    }
    return queued;
  }

  /** Resolves when no job is queued or running (tests and the benchmark). */
  idle(): Promise<void> {
    return this.queue.onIdle();
  }

  /** Stops taking work; the job under way finishes, queued ones stay pending in the database. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    await this.queue.onIdle();
  }

  private run(organizationId: string, id: string, priority: number): Promise<void> {
    const existing = this.jobs.get(id);
    if (existing) {
      // An urgent ask for a job still waiting in the queue moves it to the front. One under way (or
      // dropped by close()) is no longer in the queue, and its priority is past changing: the ask waits.
      if (priority === URGENT && !this.running.has(id) && !this.closed) this.raise(id);
      return existing;
    }
    if (this.closed) return inWriteScope(organizationId, () => this.process(organizationId, id));
    const started = async () => {
      this.running.add(id);
      try {
        // Its writes are its organization's, whichever request's continuation the queue starts it in.
        await inWriteScope(organizationId, () => this.process(organizationId, id));
      } finally {
        this.running.delete(id);
      }
    };
    // Outside the caller's request: its bound transaction (a keyed upload) must not carry the job's queries.
    const job = boundWork.exit(() => this.queue.add(started, { id, priority })).finally(() => this.jobs.delete(id));
    this.jobs.set(id, job);
    return job;
  }

  /** Moves a queued job to the front; one that has just left the queue (p-queue throws ReferenceError) is already under way. */
  private raise(id: string): void {
    try {
      this.queue.setPriority(id, URGENT);
    } catch (err) {
      if (!(err instanceof ReferenceError)) throw err;
    }
  }

  /**
   * Between two steps of a background job (not one a request waits for): while the event loop has been busy serving requests, pause
   * about as long as the last step took (the image work then takes at most half of a core's time the
   * requests could use); on an idle server, go on at once. libvips runs off the event loop, but on a
   * loaded machine its thread competes with the loop for the same cores.
   */
  private async yieldToRequests(id: string): Promise<void> {
    if (this.awaited.has(id)) return;
    const busy = performance.eventLoopUtilization(this.loop).utilization > BUSY_LOOP;
    const step = performance.now() - this.stepStarted;
    if (busy) await sleep(Math.min(MAX_PAUSE_MS, step));
    this.loop = performance.eventLoopUtilization();
    this.stepStarted = performance.now();
  }

  private async process(organizationId: string, id: string): Promise<void> {
    const row = await repo.get(this.db, organizationId, id);
    if (row?.imageState !== 'pending') return;
    this.loop = performance.eventLoopUtilization();
    this.stepStarted = performance.now();
    let original: Buffer;
    try {
      original = await readAll(await this.storage.get(row.storageKey));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // the store is down: stays pending
      await this.finish(organizationId, id, row.storageKey, undefined);
      return;
    }
    let rendered: RenderedImage | undefined;
    try {
      rendered = await renderImage(original, () => this.yieldToRequests(id));
    } catch (err) {
      // Truncated, corrupt, over the pixel limit, a format the library lacks: the asset stays, without variants.
      this.log.info({ assetId: id, reason: (err as Error).message }, 'image cannot be read; no dimensions or variants');
    }
    // Variants of an asset deleted while they are stored must not outlive a crash: the intent lets the
    // start-up sweep remove them when no row names the asset any more.
    const intent = rendered?.variants.length ? await storageIntents.record(this.db, row.storageKey) : undefined;
    for (const v of rendered?.variants ?? []) {
      await this.storage.put(variantKey(row.storageKey, v.width), Readable.from([v.data]), 'image/webp');
    }
    const settled = await this.finish(organizationId, id, row.storageKey, rendered);
    if (intent && settled) await storageIntents.settle(this.db, intent);
  }

  /** Records the outcome; whether the variants stored for it are settled (kept for a row, or removed). */
  private async finish(organizationId: string, id: string, storageKey: string, rendered: RenderedImage | undefined): Promise<boolean> {
    const recorded = await this.db.transaction(async (tx) => {
      // The add-ons showing the asset first, then the asset row: the lock order of an asset delete (and of
      // every add-on write), so a delete racing this job cannot deadlock with it.
      await touchAddonsShowingAsset(tx, organizationId, id);
      const done = await repo.finishImage(tx, organizationId, id, {
        width: rendered?.width ?? null,
        height: rendered?.height ?? null,
        // A file that cannot be decoded keeps what its header said: its original is served as it is.
        ...(rendered && { hasLocation: rendered.hasLocation }),
        placeholder: rendered?.placeholder ?? null,
        variants: json((rendered?.variants ?? []).map(({ width, height, sizeBytes }) => ({ width, height, sizeBytes }))),
        imageState: rendered ? 'ready' : 'failed',
      });
      return done;
    });
    if (recorded) return true;
    // Not pending any more. Deleted while its variants were made: the delete may have run before they
    // were stored, so they go. Finished by another instance (or request) first: its outcome stands and
    // the variants it lists are the very files this job just wrote again (same keys, same bytes), so
    // only widths its outcome does not list are removed.
    const now = await repo.get(this.db, organizationId, id).catch(() => null);
    // The database is unavailable: nothing is removed; the recorded intent stays for the start-up sweep.
    if (now === null) return false;
    const kept = new Set((now?.variants ?? []).map((v) => v.width));
    return this.deleteVariants(storageKey, kept);
  }

  /** Removes every variant an asset can have but `kept` (the asset is deleted: none kept); missing ones are no error. Whether all went. */
  async deleteVariants(storageKey: string, kept: ReadonlySet<number> = new Set()): Promise<boolean> {
    const gone = VARIANT_WIDTHS.filter((w) => !kept.has(w));
    const results = await Promise.allSettled(gone.map((w) => this.storage.delete(variantKey(storageKey, w))));
    return results.every((r) => r.status === 'fulfilled');
  }
}
