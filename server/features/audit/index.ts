/** The audit trail as an Admin reads it (GET /api/audit); writing it is server/audit's. */
import type { FastifyInstance } from 'fastify';
import { createAuditService } from '../../audit/index.js';
import type { Db } from '../../db/client.js';
import { auditRoutes } from './routes.js';

export async function auditFeature(app: FastifyInstance, { db }: { db: Db }) {
  await app.register(auditRoutes, { audit: createAuditService({ db }) });
}
