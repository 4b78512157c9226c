/** Machine rollout: the dashboard's figures from the per-curve records, and the owner's figures per division. */
export { createMachineService, type MachineService } from './service.js';
export { machineRoutes } from './routes.js';
export { listMachineReportRows, type MachineReportCursor, type MachineReportRow } from './repository.js';
