/**
 * Machine rollout: the dashboard's figures from the per-curve records, and the owner's figures
 * per division. The app makes the service (createMachineService) because the machine report reads it too.
 */
import type { FastifyInstance } from 'fastify';
import { machineRoutes } from './routes.js';
import type { MachineService } from './service.js';

export { createMachineService, type MachineService } from './service.js';
export { listMachineReportRows, type MachineReportCursor, type MachineReportRow } from './repository.js';

export async function machinesFeature(app: FastifyInstance, { machines }: { machines: MachineService }) {
  await app.register(machineRoutes, { machines });
}
