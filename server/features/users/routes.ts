import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUserSchema } from '../../../common/schemas/auth.js';
import { access } from '../../plugins/access.js';
import type { UserService } from './service.js';

export async function userRoutes(app: FastifyInstance, { users }: { users: UserService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/users',
    {
      schema: { response: { 200: z.object({ users: z.array(publicUserSchema) }) } },
      config: { access: access.roles('Admin') },
    },
    async () => ({ users: await users.list() }),
  );
}
