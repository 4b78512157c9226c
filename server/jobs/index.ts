/** The job engine: one queue in the `jobs` table for every feature's background work. */
export { createJobWorker, type JobControl, type JobDone, type JobHandler } from './worker.js';
export { countUnfinishedOf, deleteJobs, enqueueJob, expiredJobIds, heartbeatJob, insertJob, type JobRow, lockOwner, type NewJobRow } from './queue.js';
export { failStaleJobs, finishJobHere, startJobHere } from './started-here.js';
