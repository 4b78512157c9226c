import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListResponseSchema } from '../../../common/schemas/audit.js';
import { access } from '../../plugins/access.js';
import type { AuditService } from '../../audit/index.js';

export async function auditRoutes(app: FastifyInstance, { audit }: { audit: AuditService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/audit',
    {
      schema: { querystring: auditListQuerySchema, response: { 200: auditListResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return audit.list(request.query);
    },
  );
}
