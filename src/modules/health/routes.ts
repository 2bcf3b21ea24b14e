import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Check = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);

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
        summary: 'Readiness: database and storage reachable (503 otherwise)',
        response: {
          200: Type.Object({ status: Type.String(), checks: Type.Object({ database: Check, storage: Check }) }),
          503: Type.Object({ status: Type.String(), checks: Type.Object({ database: Check, storage: Check }) }),
        },
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
      const ready = database === 'ok' && storage === 'ok';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: { database, storage } });
    },
  );
};
