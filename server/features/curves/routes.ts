import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { curveListQuerySchema, curveListResponseSchema } from '../../../common/schemas/curve.js';
import {
  curveCreateSchema,
  curveDeleteResponseSchema,
  curveKeyParamsSchema,
  curveResponseSchema,
  curveUpdateSchema,
} from '../../../common/schemas/register.js';
import { sendJsonBody } from '../../json-body.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import type { CurveService } from './service.js';

export async function curveRoutes(app: FastifyInstance, { curves }: { curves: CurveService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/consolidated-curves',
    {
      // The answer is {curves, total} (common/schemas/curve.ts), validated when it is built.
      schema: { querystring: curveListQuerySchema, response: { 200: curveListResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request, reply) => {
      // Private (the list depends on who asks), revalidated each time: a 304 when unchanged.
      return sendJsonBody(request, reply, await curves.list(currentUser(request), request.query), { revalidate: true });
    },
  );

  r.post(
    '/api/consolidated-curves',
    {
      schema: { body: curveCreateSchema, response: { 201: curveResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request, reply) => reply.status(201).send({ curve: await curves.create(currentActor(request), request.body) }),
  );

  // The path's names arrive URL-encoded ('BEC%20Bypass', '660%2F10-661%2F7') and are decoded by the router.
  r.put(
    '/api/admin/curves/:section/:curveNumber/:line',
    {
      schema: { params: curveKeyParamsSchema, body: curveUpdateSchema, response: { 200: curveResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => ({ curve: await curves.update(currentActor(request), request.params, request.body) }),
  );

  r.delete(
    '/api/consolidated-curves/:section/:curveNumber/:line',
    {
      schema: { params: curveKeyParamsSchema, response: { 200: curveDeleteResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => ({ deleted: true as const, curve: await curves.remove(currentActor(request), request.params) }),
  );
}
