export { MachineDashboardPage } from './machine-dashboard-page.js';
