/**
 * Follow-up actions: a fault a visit reported (a broken or stolen part, a machine not working,
 * a high CoF reading), tracked until a later visit proves it fixed. The app makes the service
 * (createActionService) because the inspections feature tells it of every stored and deleted
 * record, inside their transactions.
 */
import type { FastifyInstance } from 'fastify';
import { actionRoutes } from './routes.js';
import type { ActionService } from './service.js';

export { type ActionScope, createActionService, type ActionService, visitFactsOf } from './service.js';
export { ACTION_SHEET_COLUMNS, actionSheetRow } from './sheet.js';

export async function actionsFeature(app: FastifyInstance, { actions }: { actions: ActionService }) {
  await app.register(actionRoutes, { actions });
}
