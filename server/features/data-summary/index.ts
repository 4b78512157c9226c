/** The records' summary figures an Admin or Client sees above the records. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { dataSummaryRoutes } from './routes.js';
import { createDataSummaryService } from './service.js';

export async function dataSummaryFeature(app: FastifyInstance, { db }: { db: Db }) {
  await app.register(dataSummaryRoutes, { dataSummary: createDataSummaryService({ db }) });
}
