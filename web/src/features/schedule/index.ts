/**
 * The technician's side of the maintenance schedule: due states on the phone (offline too),
 * the due list on /purpose (its own chunk, loaded after the page) and the status of each
 * curve in the entry form's pickers.
 */
export { curveKey, type CurveSchedule, statusText } from './curve-schedule.js';
export { DueList } from './due-list.js';
export { scheduleQuery } from './schedule-query.js';
export { openActionsQuery } from './open-actions.js';
export { useCurveSchedules } from './use-curve-schedules.js';
// /purpose imports this module on demand (import()), so none of it is on the first page.
