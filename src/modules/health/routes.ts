import { statfs } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Check = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);
const Checks = Type.Object({
  database: Check,
  storage: Check,
  disk: Type.Optional(
    Type.Union([Type.Literal('ok'), Type.Literal('full')], {
      description:
        'Only when data is kept under DATA_DIR (embedded database or disk storage). full: less than DISK_MIN_FREE_MB free; reads are served, writes may answer 507',
    }),
  ),
  redis: Type.Optional(
    Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: 'Only with REDIS_URL. degraded: Redis is down or does not answer in time; requests are served, rate limits counted per instance',
    }),
  ),
});
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('unavailable')], {
    description: 'ready: every dependency answers; degraded: requests are served without an optional one (200); unavailable: 503',
  }),
  checks: Checks,
});

/** Free space of the file system holding dir against the threshold; a dir that cannot be read is not "full". */
async function diskState(dir: string, minFreeBytes: number): Promise<'ok' | 'full'> {
  try {
    const fs = await statfs(dir, { bigint: true });
    return fs.bavail * fs.bsize < BigInt(minFreeBytes) ? 'full' : 'ok';
  } catch {
    return 'ok';
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;
  const keepsLocalData = !config.databaseUrl || config.storage.driver === 'disk';
  app.get(
    '/health',
    {
      config: { auth: 'none' },
      schema: { tags: ['Health'], summary: 'Liveness: the process answers', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['Health'],
        summary: 'Readiness: database and storage reachable (503 otherwise); Redis reported, never required',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const within = <T>(p: Promise<T>) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000).unref())]);
      const [database, storage] = await Promise.all([
        within(app.deps.db.query('SELECT 1')).then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        ),
        within(app.deps.storage.check()).then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        ),
      ]);
      const redis = app.redisLink?.state;
      const disk = keepsLocalData ? await diskState(config.dataDir, config.diskMinFreeBytes) : undefined;
      const ready = database === 'ok' && storage === 'ok';
      const status = !ready ? 'unavailable' : redis === 'degraded' || disk === 'full' ? 'degraded' : 'ready';
      return reply.code(ready ? 200 : 503).send({ status, checks: { database, storage, ...(disk ? { disk } : {}), ...(redis ? { redis } : {}) } });
    },
  );
};
