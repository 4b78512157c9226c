import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema, readinessResponseSchema } from '../../../common/schemas/auth.js';
import type { Database } from '../../db/client.js';
import { access } from '../../plugins/access.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createReadiness } from './readiness.js';
import { VERSION } from '../../version.js';
import type { ShutdownState } from './shutdown.js';

export interface HealthFeatureOptions {
  database: Database;
  blobs: BlobStore;
  demo: boolean;
  shutdown: ShutdownState;
}

export async function healthRoutes(app: FastifyInstance, { database, blobs, demo, shutdown }: HealthFeatureOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Liveness: the process answers (and says whether its database does).
  r.get(
    '/api/health',
    {
      schema: { response: { 200: healthResponseSchema, 503: healthResponseSchema } },
      config: { access: access.public },
    },
    async (_request, reply) => {
      const ok = await database.ping();
      void reply.header('cache-control', 'no-store');
      return reply
        .status(ok ? 200 : 503)
        .send({ status: ok ? 'ok' : 'degraded', database: ok ? 'ok' : 'unreachable', version: VERSION, demo });
    },
  );

  // Readiness: whether a load balancer should send this instance work. Public: balancers call it without a session.
  const readiness = createReadiness({ database, blobs, shutdown });
  r.get(
    '/api/ready',
    {
      schema: { response: { 200: readinessResponseSchema, 503: readinessResponseSchema } },
      config: { access: access.public },
    },
    async (_request, reply) => {
      const answer = await readiness.check();
      void reply.header('cache-control', 'no-store');
      return reply.status(answer.status === 'ready' ? 200 : 503).send(answer);
    },
  );
}
