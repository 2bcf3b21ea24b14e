import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { StorageOwnershipError } from './storage/stamp.js';

// Only the configuration is imported statically: with OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts
// before anything that loads node:http or pg, so its instrumentations can wrap them.
export async function startServer(): Promise<void> {
  const config = loadConfig();
  const tracing = config.tracing ? await (await import('./observability/tracing.js')).startTracing(config.tracing) : undefined;
  const [
    { buildApp },
    { sweepOrphans },
    { openRuntime },
    { createBlobStore },
    { claimStorage, describeDatabase },
    { pino },
    { redactingLoggerOptions },
    startup,
  ] = await Promise.all([
    import('./app.js'),
    import('./modules/assets/orphans.js'),
    import('./runtime.js'),
    import('./storage/index.js'),
    import('./storage/stamp.js'),
    import('pino'),
    import('./http/logging.js'),
    import('./startup-log.js'),
  ]);
  // The app's logger, made first so the start says what it does while it does it (issue 28).
  const log = pino(redactingLoggerOptions(config, { level: config.logLevel }));
  const runtime = await openRuntime(config, 'server', {
    ownsFiles: true,
    log,
    onLockWait: (holder, waitMs) =>
      log.warn(
        { dataDir: config.dataDir, holder },
        `the data directory ${config.dataDir} is in use (${holder}); waiting up to ${waitMs / 1000} s for it to stop`,
      ),
  });
  const storage = createBlobStore(config);
  const storageLine = startup.describeStorage(config);
  log.info(storageLine.fields, storageLine.msg);
  // Before any file is served or swept: the storage must be this database's (issue 25, item 1).
  const claimed = await claimStorage(runtime.db, storage, describeDatabase(config)).catch(async (err: unknown) => {
    await runtime.close();
    throw err;
  });
  if (claimed !== 'owned') log.info({ storage: storage.describe(), outcome: claimed }, 'file storage stamped with this database');
  const app = await buildApp({ config, db: runtime.db, storage, loggerInstance: log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await app.close();
      await runtime.close();
      await tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'trace export at shutdown failed'));
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    // Bytes an upload stored before a crash took its row (or a delete's row before its bytes), as
    // recorded in this database's outbox (storage_intents); nothing else is ever removed. Alone on
    // DATA_DIR with local files, nothing else can be writing, so every intent is settled before the
    // first request; with shared storage only intents older than any request.
    if (runtime.lock && storage.driver === 'disk') {
      const swept = await sweepOrphans(runtime.db, storage, new Date());
      if (swept.objects + swept.temporary > 0) app.log.info(swept, 'removed files left by an interrupted upload or delete');
    } else {
      sweepOrphans(runtime.db, storage, new Date(Date.now() - ORPHAN_AGE_MS)).then(
        (swept) => swept.objects > 0 && app.log.info(swept, 'removed files left by an interrupted upload or delete'),
        (err: unknown) => app.log.warn({ err }, 'orphan sweep failed; it runs again at the next start'),
      );
    }
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
    const ready = startup.describeReady(`http://${host}:${port}`, (await app.services.organizations.list(0, 1)).length > 0, config.adminToken !== undefined);
    app.log.info(ready.fields, ready.msg);
    // Images a crash (or a shutdown mid-job) left pending are made again, in the background.
    app.services.assets.images.resume().then(
      (n) => n > 0 && app.log.info({ images: n }, 'resuming image variant jobs left pending'),
      (err: unknown) => app.log.warn({ err }, 'resuming image variant jobs failed; they are made on first request or at the next start'),
    );
  } catch (err) {
    await app.close().catch(() => undefined);
    await runtime.close();
    await tracing?.shutdown().catch(() => undefined);
    throw err;
  }
}

/** Older than any upload can run (request timeouts are minutes): such an object has no request left to finish it. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/server.js') || process.argv[1]?.endsWith('/server.ts');
if (isMain) {
  startServer().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof StorageOwnershipError) {
      process.stderr.write(`estate-publisher: ${err.message}\n`);
    } else {
      process.stderr.write(`estate-publisher: failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
}
