import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '../../../common/schemas/auth.js';
import type { Database } from '../../db/client.js';
import { access } from '../../plugins/access.js';
import { PROJECT_ROOT } from '../../paths.js';

const VERSION = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export async function healthRoutes(app: FastifyInstance, { database, demo }: { database: Database; demo: boolean }) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
