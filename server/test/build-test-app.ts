import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp, type AppConfig, type AppDeps } from '../app.js';
import type { Database } from '../db/client.js';
import { DiskBlobStore } from '../storage/disk-blob-store.js';
import type { PhotoWorker } from '../features/inspections/photo-worker.js';
import { openTestDatabase } from './test-database.js';
import { DEFAULT_ACTION_DUE_DAYS } from '../../common/rules/follow-up-actions.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  blobs: DiskBlobStore;
  /**
   * Resolves once the photo worker has nothing queued or under way: the derived files of every
   * upload so far are written, and those of a photo deleted meanwhile are gone again.
   */
  photosSettled(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_CONFIG: AppConfig = {
  demo: false,
  ownerEmployeeIds: ['OWN0001'],
  sessionTtlSeconds: 3600,
  sessionMaxAgeSeconds: 30 * 24 * 3600,
  requestTimeoutSeconds: 300,
  appTimeZone: 'Asia/Kolkata',
  cofAlertThreshold: 0.25,
  followUpDueDays: DEFAULT_ACTION_DUE_DAYS,
  reportRetentionDays: 7,
  reportWorkers: 1,
  reportJobStaleSeconds: 60,
  reportJobsPerAdmin: 5,
  reportJobsPerClient: 2,
  trustProxy: false,
  // A folder that holds no backups: the file tools' restore finds nothing there unless a test makes some.
  backupDir: path.join(os.tmpdir(), 'hkmi-test-no-backups'),
  backupSchedule: undefined,
};

/** The real app on a fresh database and a scratch blob folder; no web build is served. */
export interface TestAppOptions {
  /** Sees every route as it is registered. */
  onRoute?: (route: RouteOptions) => void;
  /** A fixed (or movable) clock: the schedule's "today" comes from it. */
  now?: () => Date;
  /** Fastify's logger options (a test captures the log lines with `stream`); none by default. */
  logger?: AppDeps['logger'];
  /** The stopping switch GET /api/ready reads (a test flips it); a serving instance's by default. */
  shutdown?: AppDeps['shutdown'];
}

export async function buildTestApp(config: Partial<AppConfig> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const blobDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-blobs-'));
  const blobs = new DiskBlobStore(blobDir);
  let photoWorker: PhotoWorker | undefined;
  const app = await buildApp({
    config: { ...TEST_CONFIG, ...config },
    database,
    blobs,
    webRoot: path.join(blobDir, 'no-web'),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.shutdown ? { shutdown: options.shutdown } : {}),
    onPhotoWorker: (worker) => {
      photoWorker = worker;
    },
  });
  await app.ready();
  return {
    app,
    database,
    blobs,
    async photosSettled() {
      await photoWorker?.idle();
    },
    async close() {
      await app.close();
      await database.close();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}
