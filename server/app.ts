/**
 * buildApp(deps) assembles the Fastify instance without listening: main.ts listens,
 * tests call app.inject. Everything the app needs comes in through deps.
 */
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RawRequestDefaultExpression, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { MAX_PHOTO_BYTES } from '../common/constants.js';
import type { Config, TrustProxy } from './config.js';
import { employeeIdKey } from '../common/rules/employee-id.js';
import type { Database } from './db/client.js';
import { DEMO_ACCOUNTS } from './db/seed/demo-accounts.js';
import { createAuditService } from './features/audit/audit.js';
import { auditRoutes } from './features/audit/routes.js';
import { authRoutes } from './features/auth/routes.js';
import { createAuthService } from './features/auth/service.js';
import { curveRoutes } from './features/curves/routes.js';
import { dataSummaryRoutes } from './features/data-summary/routes.js';
import { createDataSummaryService } from './features/data-summary/service.js';
import { createCurveService } from './features/curves/service.js';
import { createRegisterExportService } from './features/register/export-service.js';
import { createRegisterFiltersService } from './features/register/filters-service.js';
import { createRegisterImportService } from './features/register/import-service.js';
import { registerRoutes } from './features/register/routes.js';
import { createStationService } from './features/stations/service.js';
import { healthRoutes } from './features/health/routes.js';
import { createPhotoFiles } from './features/inspections/photo-files.js';
import { createPhotoWorker, type PhotoWorker } from './features/inspections/photo-worker.js';
import { inspectionRoutes } from './features/inspections/routes.js';
import { createInspectionService } from './features/inspections/service.js';
import { partRoutes } from './features/parts/routes.js';
import {
  createCurveMaintenanceReport,
  createInspectionPdfReport,
  createMachineReport,
  createRecordReports,
  createReportService,
  createServiceTablePdfReport,
  createSseCofPdfReport,
  reportRoutes,
} from './features/reports/index.js';
import { createMachineService, machineRoutes } from './features/machines/index.js';
import { documentRoutes } from './features/documents/index.js';
import { createBackupScheduler } from './features/backups/index.js';
import { createFileToolsService, fileToolRoutes } from './features/file-tools/index.js';
import { createScheduleService, scheduleRoutes } from './features/schedule/index.js';
import { stationRoutes } from './features/stations/routes.js';
import { userRoutes } from './features/users/routes.js';
import { createUserService } from './features/users/service.js';
import { WEB_DIST_DIR } from './paths.js';
import { sameOrigin } from './plugins/same-origin.js';
import { accessControl } from './plugins/access.js';
import { RequestLogController, requestLogging } from './logging.js';
import { clientErrors, errors, frameworkErrors } from './plugins/errors.js';
import { webApp } from './plugins/web-app.js';
import type { BlobStore } from './storage/blob-store.js';

export type AppConfig = Pick<
  Config,
  | 'demo'
  | 'ownerEmployeeIds'
  | 'sessionTtlSeconds'
  | 'sessionMaxAgeSeconds'
  | 'requestTimeoutSeconds'
  | 'appTimeZone'
  | 'cofAlertThreshold'
  | 'reportRetentionDays'
  | 'reportWorkers'
  | 'reportJobStaleSeconds'
  | 'reportJobsPerAdmin'
  | 'reportJobsPerClient'
  | 'trustProxy'
  | 'backupDir'
  | 'backupSchedule'
> &
  // None besides the server's own unless configured (tests leave it out).
  Partial<Pick<Config, 'allowedOrigins'>>;

export interface AppDeps {
  config: AppConfig;
  database: Database;
  blobs: BlobStore;
  logger?: FastifyServerOptions['logger'];
  /** Where the built web app is; defaults to dist/web. */
  webRoot?: string;
  /** The clock business dates are read from (tests fix it); defaults to the system's. */
  now?: () => Date;
  /** Called for every route as it is registered (tests walk the route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** Handed the photo worker once it exists (tests wait for it to be idle before looking at files). */
  onPhotoWorker?: (worker: PhotoWorker) => void;
}

/** JSON bodies are small (sign-in, forms); photos come as multipart with their own limit. */
const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * A request ID a client or a proxy sent is kept (to follow a request through the proxy's logs)
 * only in a plain shape; anything else is replaced before it reaches the logs or the audit trail.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
function requestIdOf(raw: RawRequestDefaultExpression): string {
  const sent = raw.headers['x-request-id'];
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** TRUST_PROXY as Fastify takes it: a number of proxies is "believe the last n hops". */
function trustedProxies(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    // One log line a request, when its response has gone (server/logging.ts).
    logController: new RequestLogController(),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustedProxies(config.trustProxy),
    requestIdHeader: false,
    genReqId: requestIdOf,
    // A request must arrive whole within REQUEST_TIMEOUT (408 otherwise): a client trickling a
    // body cannot hold a connection for ever. Node 20 applies it only when the server is made
    // with it (Fastify's own requestTimeout sets it afterwards, which Node ignores), and checks
    // at connectionsCheckingInterval, so that is kept well below it.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    http: {
      requestTimeout: config.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, (config.requestTimeoutSeconds * 1000) / 4)),
    },
    // The router's own refusals (a broken %-escape, an over-long path parameter) answered from the catalogue.
    frameworkErrors,
    clientErrorHandler: clientErrors,
  });
  if (deps.onRoute) {
    const onRoute = deps.onRoute;
    app.addHook('onRoute', (route) => onRoute(route));
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API takes JSON (and, for photos, multipart); a plain-text body is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  // Owners are configured by employee ID; in demo mode the demo admin is one, so every
  // screen of the product can be tried.
  const owners = new Set(
    [...config.ownerEmployeeIds, ...(config.demo ? DEMO_ACCOUNTS.filter((a) => a.role === 'Admin').map((a) => a.employeeId) : [])].map(
      employeeIdKey,
    ),
  );
  const isOwner = (employeeId: string) => owners.has(employeeIdKey(employeeId));

  const db = database.db;
  const auth = createAuthService({
    db,
    sessionTtlSeconds: config.sessionTtlSeconds,
    sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
    demoMode: config.demo,
    isOwner,
  });
  // Dead sessions, sign-in counts and trusted browsers nobody can use go at start and hourly.
  app.addHook('onReady', async () => auth.start());
  app.addHook('onClose', async () => auth.stop());
  const users = createUserService({ db, isOwner });
  const curves = createCurveService({ db });
  const audit = createAuditService({ db });
  const photoFiles = createPhotoFiles({ db, blobs: deps.blobs, log: app.log });
  const photoWorker = createPhotoWorker({ db, blobs: deps.blobs, photoFiles, log: app.log });
  deps.onPhotoWorker?.(photoWorker);
  const inspections = createInspectionService({ db, blobs: deps.blobs, photoFiles, photoWorker, appTimeZone: config.appTimeZone });
  const dataSummary = createDataSummaryService({ db });
  const now = deps.now ?? (() => new Date());
  const schedule = createScheduleService({ db, appTimeZone: config.appTimeZone, cofAlertThreshold: config.cofAlertThreshold, now });
  const reports = createReportService({
    db,
    blobs: deps.blobs,
    now,
    retentionDays: config.reportRetentionDays,
    workers: config.reportWorkers,
    staleSeconds: config.reportJobStaleSeconds,
    jobsPerAdmin: config.reportJobsPerAdmin,
    jobsPerClient: config.reportJobsPerClient,
    databaseKind: database.kind,
    log: app.log,
  });
  const curveMaintenance = createCurveMaintenanceReport({ db, schedule, reports, appTimeZone: config.appTimeZone, now });
  const recordReports = createRecordReports({ db, reports, now, cofAlertThreshold: config.cofAlertThreshold });
  const inspectionPdf = createInspectionPdfReport({ db, blobs: deps.blobs, reports, records: recordReports, appTimeZone: config.appTimeZone });
  const sseCofPdf = createSseCofPdfReport({ db, reports, records: recordReports, appTimeZone: config.appTimeZone });
  const serviceTablePdf = createServiceTablePdfReport({ db, reports, records: recordReports, appTimeZone: config.appTimeZone });
  const machines = createMachineService({ db });
  const machineReport = createMachineReport({ db, reports, machines, appTimeZone: config.appTimeZone, now });
  const stations = createStationService({ db });
  const registerFilters = createRegisterFiltersService({ db });
  const importer = createRegisterImportService({ db });
  const exporter = createRegisterExportService({ db, appTimeZone: config.appTimeZone, log: app.log });
  const fileTools = createFileToolsService({ db, blobs: deps.blobs, photoFiles, backupDir: config.backupDir, log: app.log, now });
  app.addHook('onReady', async () => fileTools.tidy());
  app.addHook('onClose', async () => fileTools.stop());
  // Scheduled backups (BACKUP_DIR set): one an interval between all instances, the newest BACKUP_KEEP kept.
  if (config.backupSchedule) {
    const backups = createBackupScheduler({ database, blobs: deps.blobs, backupDir: config.backupDir, ...config.backupSchedule, log: app.log });
    app.addHook('onReady', async () => backups.start());
    app.addHook('onClose', async () => backups.stop());
  }
  // Photo files left queued by an earlier run (a crash after a deletion) go at start.
  app.addHook('onReady', async () => photoFiles.start());
  app.addHook('onClose', async () => photoFiles.stop());
  app.addHook('onReady', async () => photoWorker.start());
  app.addHook('onClose', async () => photoWorker.stop());
  // The report worker claims queued jobs from start; expired reports (REPORT_RETENTION_DAYS)
  // and their files go at start and then hourly. A clean stop hands unfinished jobs back.
  app.addHook('onReady', async () => reports.start());
  app.addHook('onClose', async () => reports.stop());

  await app.register(requestLogging);
  await app.register(errors);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The camera screen needs the camera and location of this origin.
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  // Before the session is read: a cross-site write is refused whatever cookie it carries.
  await app.register(sameOrigin, { allowedOrigins: config.allowedOrigins ?? [] });
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 64 * 1024, headerPairs: 100 },
  });
  await app.register(accessControl, { auth, sessionTtlSeconds: config.sessionTtlSeconds });

  await app.register(healthRoutes, { database, demo: config.demo });
  await app.register(authRoutes, { auth, demo: config.demo });
  await app.register(userRoutes, { users });
  await app.register(auditRoutes, { audit });
  await app.register(curveRoutes, { curves });
  await app.register(stationRoutes, { db, stations });
  await app.register(registerRoutes, { filters: registerFilters, importer, exporter });
  await app.register(partRoutes, { db });
  await app.register(inspectionRoutes, { inspections, blobs: deps.blobs });
  await app.register(dataSummaryRoutes, { dataSummary });
  await app.register(scheduleRoutes, { schedule });
  await app.register(reportRoutes, { reports, curveMaintenance, inspectionPdf, sseCofPdf, serviceTablePdf, machineReport, blobs: deps.blobs });
  await app.register(machineRoutes, { machines });
  await app.register(documentRoutes, { now, appTimeZone: config.appTimeZone });
  await app.register(fileToolRoutes, { fileTools });

  await app.register(webApp, { root: deps.webRoot ?? WEB_DIST_DIR });
  return app;
}
