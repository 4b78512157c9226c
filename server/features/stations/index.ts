/** The station register: its routes, and what the register's import and export use of it. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { stationRoutes } from './routes.js';
import { createStationService } from './service.js';

export { describeStation, presentStation, stationAuditId, stationValuesOf } from './presenter.js';
export { findStationsByKeys, stationBatch, upsertStations } from './repository.js';

export async function stationsFeature(app: FastifyInstance, { db }: { db: Db }) {
  await app.register(stationRoutes, { db, stations: createStationService({ db }) });
}
