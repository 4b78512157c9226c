export { CurveMaintenanceView } from './curve-maintenance-view.js';
export { ScheduleAtAGlance } from './schedule-at-a-glance.js';
