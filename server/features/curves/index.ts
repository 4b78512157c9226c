/** The curve register: its routes, and what the register's import and export use of it. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { curveRoutes } from './routes.js';
import { createCurveService } from './service.js';

export { curveAuditId, curveValuesOf, describeCurve, presentCurve } from './presenter.js';
export { clearHkmCodes, curveBatch, findCurvesByHkmCodes, findCurvesByKeys, upsertCurves } from './repository.js';

export async function curvesFeature(app: FastifyInstance, { db }: { db: Db }) {
  await app.register(curveRoutes, { curves: createCurveService({ db }) });
}
