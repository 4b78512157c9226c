/** Machine rollout: the dashboard page, the reports landing's progress card and the owner's editing view. */
export { MachineDashboardPage } from './machine-dashboard-page.js';
export { MachineDashboardManagement } from './machine-dashboard-management.js';
export { MachineProgressCard } from './machine-progress-card.js';
