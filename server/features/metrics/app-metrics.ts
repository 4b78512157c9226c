/**
 * The metrics of one app instance, in a registry of its own (tests build many apps in one
 * process, and prom-client's global registry would mix them). Two kinds of figures:
 * - counted here as things happen, cheap on the request path: requests by route pattern and
 *   status, uploads accepted and replayed, reports made by this instance's workers;
 * - read when Prometheus scrapes: the database's shared facts (repository.ts), this instance's
 *   photo worker backlog and database pool.
 * The process's own figures (CPU, memory, event loop, GC) come from process-metrics.ts.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import { lastSuccessfulBackup, pendingPhotos, unfinishedJobs } from './repository.js';

/** A request that matched no route (a 404, the web app's pages): never the raw URL, which would make a series per path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the scrape reads from the photo worker (its backlog in this instance's memory). */
export interface PhotoBacklog {
  backlog(): { queued: number; decoding: number };
}

export interface AppMetricsDeps {
  database: Database;
  version: string;
}

export interface AppMetrics {
  registry: Registry;
  /** The onResponse hook's one call: a histogram observe (its _count is the request count). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  uploadAnswered(outcome: 'accepted' | 'replayed'): void;
  reportSettled(kind: string, outcome: 'done' | 'failed', seconds: number): void;
  /** The photo worker, once the inspections feature made it. */
  watchPhotoWorker(worker: PhotoBacklog): void;
  /** The exposition text, with the shared figures read from the database now. */
  scrape(): Promise<string>;
}

/** From 5 ms to a minute: API reads sit at the low end, uploads and report downloads higher. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Reports take from a second to many minutes (a PDF of a thousand photos). */
const REPORT_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export function createAppMetrics(deps: AppMetricsDeps): AppMetrics {
  const registry = new Registry();
  const { database } = deps;
  let photoWorker: PhotoBacklog | undefined;

  new Gauge({
    name: 'hkmi_info',
    help: 'Always 1: the version of this instance and the database it runs on (pglite or postgres)',
    labelNames: ['version', 'database'],
    registers: [registry],
  }).set({ version: deps.version, database: database.kind }, 1);

  const requests = new Histogram({
    name: 'hkmi_http_request_duration_seconds',
    help: 'Requests answered, by method, route pattern (unmatched for none) and status, and how long each took; _count is the number of requests',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const uploads = new Counter({
    name: 'hkmi_uploads_total',
    help: 'Photo uploads answered with their record: accepted (stored now) or replayed (a retry answered with the record stored before)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of ['accepted', 'replayed']) uploads.inc({ outcome }, 0);
  const reports = new Histogram({
    name: 'hkmi_report_duration_seconds',
    help: "Reports made by this instance's workers, by job kind and outcome (done or failed), and how long each took",
    labelNames: ['kind', 'outcome'],
    buckets: REPORT_BUCKETS,
    registers: [registry],
  });

  const databaseUp = new Gauge({
    name: 'hkmi_database_up',
    help: "1 when this scrape's database queries answered; 0 when they failed (the database figures are then left out)",
    registers: [registry],
  });
  const jobs = new Gauge({
    name: 'hkmi_jobs',
    help: 'Unfinished background jobs of all instances (reports, file tools, backups), by kind and status (queued or running)',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });
  const jobsOldest = new Gauge({
    name: 'hkmi_jobs_oldest_age_seconds',
    help: 'Age of the oldest unfinished job since it was asked for, by kind and status (queued or running)',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });
  const photosPending = new Gauge({
    name: 'hkmi_photos_pending',
    help: 'Records whose photo waits for its decode (thumbnail and print copy), on all instances',
    registers: [registry],
  });
  const photosPendingOldest = new Gauge({
    name: 'hkmi_photos_pending_oldest_age_seconds',
    help: 'How long the oldest photo waiting for its decode has waited (0 when none waits)',
    registers: [registry],
  });
  const photoWorkerBacklog = new Gauge({
    name: 'hkmi_photo_worker_backlog',
    help: "This instance's photo worker: photos queued in memory and being decoded now",
    labelNames: ['state'],
    registers: [registry],
  });
  const backupLast = new Gauge({
    name: 'hkmi_backup_last_success_timestamp_seconds',
    help: 'When the last successful backup finished (Unix time; 0 when there has been none), whichever instance or `npm run backup` made it',
    registers: [registry],
  });
  const backupLastDuration = new Gauge({
    name: 'hkmi_backup_last_success_duration_seconds',
    help: 'How long the last successful backup took',
    registers: [registry],
  });
  // PostgreSQL only: PGlite is one connection inside the process, with no pool to watch.
  const pool = database.kind === 'postgres'
    ? {
        connections: new Gauge({ name: 'hkmi_db_pool_connections', help: "This instance's PostgreSQL pool: open connections, busy or idle", labelNames: ['state'], registers: [registry] }),
        waiting: new Gauge({ name: 'hkmi_db_pool_waiting_queries', help: "Queries waiting for a connection of this instance's PostgreSQL pool", registers: [registry] }),
        max: new Gauge({ name: 'hkmi_db_pool_max_connections', help: "The size of this instance's PostgreSQL pool", registers: [registry] }),
      }
    : undefined;

  async function readDatabase(): Promise<void> {
    jobs.reset();
    jobsOldest.reset();
    try {
      const [unfinished, photos, backup] = await Promise.all([unfinishedJobs(database.db), pendingPhotos(database.db), lastSuccessfulBackup(database.db)]);
      for (const row of unfinished) {
        jobs.set({ kind: row.kind, status: row.status }, row.count);
        jobsOldest.set({ kind: row.kind, status: row.status }, row.oldestAgeSeconds);
      }
      photosPending.set(photos.count);
      photosPendingOldest.set(photos.oldestAgeSeconds ?? 0);
      backupLast.set(backup?.finishedAtSeconds ?? 0);
      backupLastDuration.set(backup?.durationSeconds ?? 0);
      databaseUp.set(1);
    } catch {
      // Figures of a database that did not answer would be stale: left out, and said so.
      for (const gauge of [photosPending, photosPendingOldest, backupLast, backupLastDuration]) gauge.reset();
      databaseUp.set(0);
    }
  }

  function readInstance(): void {
    if (photoWorker) {
      const backlog = photoWorker.backlog();
      photoWorkerBacklog.set({ state: 'queued' }, backlog.queued);
      photoWorkerBacklog.set({ state: 'decoding' }, backlog.decoding);
    }
    const use = database.poolUse();
    if (pool && use) {
      pool.connections.set({ state: 'busy' }, use.total - use.idle);
      pool.connections.set({ state: 'idle' }, use.idle);
      pool.waiting.set(use.waiting);
      pool.max.set(use.max);
    }
  }

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route: route ?? UNMATCHED_ROUTE, status }, seconds);
    },
    uploadAnswered(outcome) {
      uploads.inc({ outcome });
    },
    reportSettled(kind, outcome, seconds) {
      reports.observe({ kind, outcome }, seconds);
    },
    watchPhotoWorker(worker) {
      photoWorker = worker;
    },
    async scrape() {
      // The pool is read before the database queries take connections from it.
      readInstance();
      await readDatabase();
      return registry.metrics();
    },
  };
}
