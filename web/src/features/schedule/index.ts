/**
 * The technician's side of the maintenance schedule: due states on the phone (offline too),
 * the due list on /purpose (its own chunk, loaded after the page) and the status of each
 * curve in the entry form's pickers.
 */
export { curveKey, type CurveSchedule, statusText } from './curve-schedule.js';
export { useCurveSchedules } from './use-curve-schedules.js';
// The due list is imported from './lazy-due-list.js' by /purpose, so this module stays off the first page.
