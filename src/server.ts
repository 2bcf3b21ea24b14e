import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { openRuntime } from './runtime.js';
import { createBlobStore } from './storage/index.js';

export async function startServer(): Promise<void> {
  const config = loadConfig();
  const runtime = await openRuntime(config, 'server');
  const storage = createBlobStore(config);
  const app = await buildApp({ config, db: runtime.db, storage });

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
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await runtime.close();
    throw err;
  }
}

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/server.js') || process.argv[1]?.endsWith('/server.ts');
if (isMain) {
  startServer().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirLockedError) {
      process.stderr.write(`estate-publisher: ${err.message}\n`);
    } else {
      process.stderr.write(`estate-publisher: failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
}
