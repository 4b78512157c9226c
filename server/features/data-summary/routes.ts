import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataSummarySchema } from '../../../common/schemas/records.js';
import { access, currentUser } from '../../plugins/access.js';
import type { DataSummaryService } from './service.js';

export async function dataSummaryRoutes(app: FastifyInstance, { dataSummary }: { dataSummary: DataSummaryService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/data-summary',
    { schema: { response: { 200: dataSummarySchema } }, config: { access: access.roles('Admin', 'Client') } },
    async (request, reply) => {
      // Counts change with every upload: always ask the server.
      void reply.header('cache-control', 'no-store');
      return dataSummary.summary(currentUser(request));
    },
  );
}
