import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { curveListQuerySchema } from '../../../common/schemas/curve.js';
import { access, currentUser } from '../../plugins/access.js';
import type { CurveService } from './service.js';

export async function curveRoutes(app: FastifyInstance, { curves }: { curves: CurveService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/consolidated-curves',
    {
      // The answer is {curves, total} (common/schemas/curve.ts), validated when it is built.
      schema: { querystring: curveListQuerySchema },
      config: { access: access.signedIn },
    },
    async (request, reply) => {
      const body = await curves.list(currentUser(request), request.query);
      void reply.headers({
        etag: body.etag,
        // Private: the list depends on who asks. Revalidated each time, answered 304 when unchanged.
        'cache-control': 'private, no-cache',
        vary: 'Cookie, Accept-Encoding',
      });
      if (request.headers['if-none-match'] === body.etag) return reply.status(304).send();
      void reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return reply.header('content-encoding', 'gzip').send(body.gzip);
      }
      return reply.send(body.json);
    },
  );
}
