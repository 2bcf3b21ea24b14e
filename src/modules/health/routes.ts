import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Check = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);
const Checks = Type.Object({
  database: Check,
  storage: Check,
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

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      const ready = database === 'ok' && storage === 'ok';
      const status = !ready ? 'unavailable' : redis === 'degraded' ? 'degraded' : 'ready';
      return reply.code(ready ? 200 : 503).send({ status, checks: { database, storage, ...(redis ? { redis } : {}) } });
    },
  );
};
