import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUserSchema } from '../../../common/schemas/auth.js';
import { technicianListResponseSchema } from '../../../common/schemas/reference.js';
import { access, currentUser } from '../../plugins/access.js';
import type { UserService } from './service.js';

export async function userRoutes(app: FastifyInstance, { users }: { users: UserService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/technicians',
    {
      schema: { response: { 200: technicianListResponseSchema } },
      config: { access: access.roles('Admin', 'Client') },
    },
    async (request, reply) => {
      // Spec section 9: the technicians list is cached for 5 minutes.
      void reply.header('cache-control', 'private, max-age=300');
      return { technicians: await users.technicians(currentUser(request)) };
    },
  );
  r.get(
    '/api/users',
    {
      schema: { response: { 200: z.object({ users: z.array(publicUserSchema) }) } },
      config: { access: access.roles('Admin') },
    },
    async () => ({ users: await users.list() }),
  );
}
