/**
 * buildApp(deps) assembles the Fastify instance without listening: main.ts listens,
 * tests call app.inject. Everything the app needs comes in through deps.
 */
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RawRequestDefaultExpression, type RouteOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config.js';
import { employeeIdKey } from '../common/rules/employee-id.js';
import type { Database } from './db/client.js';
import { DEMO_ACCOUNTS } from './db/seed/demo-accounts.js';
import { apiDocsFeature, collectApiRoutes } from './features/api-docs/index.js';
import { auditFeature } from './features/audit/index.js';
import { authFeature, createAuthService } from './features/auth/index.js';
import { backupsFeature } from './features/backups/index.js';
import { curvesFeature } from './features/curves/index.js';
import { dataSummaryFeature } from './features/data-summary/index.js';
import { documentsFeature } from './features/documents/index.js';
import { fileToolsFeature } from './features/file-tools/index.js';
import { createShutdownState, healthFeature, type ShutdownState } from './features/health/index.js';
import { createPhotoFiles, inspectionsFeature, type PhotoWorker } from './features/inspections/index.js';
import { createMachineService, machinesFeature } from './features/machines/index.js';
import { partsFeature } from './features/parts/index.js';
import { registerFeature } from './features/register/index.js';
import { reportsFeature } from './features/reports/index.js';
import { createScheduleService, scheduleFeature } from './features/schedule/index.js';
import { actionsFeature, createActionService } from './features/actions/index.js';
import { analyticsFeature, createAnalyticsService } from './features/analytics/index.js';
import { createAppMetrics, metricsFeature } from './features/metrics/index.js';
import { stationsFeature } from './features/stations/index.js';
import { usersFeature } from './features/users/index.js';
import { WEB_DIST_DIR } from './paths.js';
import { multipartBodiesLeftUnread } from './plugins/multipart.js';
import { sameOrigin } from './plugins/same-origin.js';
import { securityHeadersOnEveryAnswer } from './plugins/security-headers.js';
import { accessControl } from './plugins/access.js';
import { RequestLogController, requestLogging } from './logging.js';
import { clientErrors, errors, frameworkErrors } from './plugins/errors.js';
import { webApp } from './plugins/web-app.js';
import { serializerCompiler } from './response-serializer.js';
import type { BlobStore } from './storage/blob-store.js';
import { VERSION } from './version.js';

export type AppConfig = Pick<
  Config,
  | 'demo'
  | 'ownerEmployeeIds'
  | 'sessionTtlSeconds'
  | 'sessionMaxAgeSeconds'
  | 'requestTimeoutSeconds'
  | 'appTimeZone'
  | 'cofAlertThreshold'
  | 'followUpDueDays'
  | 'reportRetentionDays'
  | 'reportWorkers'
  | 'reportJobStaleSeconds'
  | 'reportJobsPerAdmin'
  | 'reportJobsPerClient'
  | 'trustProxy'
  | 'backupDir'
  | 'backupSchedule'
> &
  // None besides the server's own unless configured (tests leave them out); no metrics without a token.
  Partial<Pick<Config, 'allowedOrigins' | 'metricsToken'>>;

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
  /** Whether the instance is stopping (main.ts drains by it; GET /api/ready reads it); a fresh, serving one by default. */
  shutdown?: ShutdownState;
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
  // Kept async: made synchronous (done), a 400 for a body that failed to parse was logged as
  // "request aborted" instead of "request completed" (server/logging.test.ts, through inject).
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
  const now = deps.now ?? (() => new Date());
  const { appTimeZone } = config;
  // The services one feature needs from another are made here, through their feature's public face.
  const auth = createAuthService({
    db,
    sessionTtlSeconds: config.sessionTtlSeconds,
    sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
    demoMode: config.demo,
    isOwner,
  });
  const photoFiles = createPhotoFiles({ db, blobs: deps.blobs, log: app.log });
  const schedule = createScheduleService({ db, appTimeZone, cofAlertThreshold: config.cofAlertThreshold, now });
  const machines = createMachineService({ db });
  const actions = createActionService({
    db,
    appTimeZone,
    cofAlertThreshold: config.cofAlertThreshold,
    dueDays: config.followUpDueDays,
    now,
  });
  const analytics = createAnalyticsService({ db, appTimeZone, cofAlertThreshold: config.cofAlertThreshold, now });

  await app.register(requestLogging);
  await app.register(errors);
  await app.register(securityHeadersOnEveryAnswer);
  await app.register(fastifyCookie);
  // Before the session is read: a cross-site write is refused whatever cookie it carries.
  await app.register(sameOrigin, { allowedOrigins: config.allowedOrigins ?? [] });
  // Multipart forms are read only by the routes that take one (server/plugins/multipart.ts).
  await app.register(multipartBodiesLeftUnread);
  await app.register(accessControl, { auth, sessionTtlSeconds: config.sessionTtlSeconds });
  // Only with METRICS_TOKEN: without it no metric is kept and no hook runs on the request path.
  // After the error handler (it answers the route's 401), before the features (the request hook covers their routes).
  const metrics = config.metricsToken ? createAppMetrics({ database, version: VERSION }) : undefined;
  if (metrics && config.metricsToken) await app.register(metricsFeature, { metrics, token: config.metricsToken });

  // Before the features: it collects their routes, with their schemas, as they are registered.
  await app.register(collectApiRoutes, { version: VERSION });

  // The features, in the order their routes are listed. Their background work starts in this
  // order too (onReady) and stops in the reverse one (onClose runs last-added first), so a part
  // stops before what it uses: the photo files and worker, the reports, backups, the file tools.
  await app.register(healthFeature, { database, blobs: deps.blobs, demo: config.demo, shutdown: deps.shutdown ?? createShutdownState() });
  await app.register(authFeature, { auth, demo: config.demo });
  await app.register(usersFeature, { db, isOwner });
  await app.register(auditFeature, { db });
  await app.register(curvesFeature, { db });
  await app.register(stationsFeature, { db });
  await app.register(registerFeature, { db, appTimeZone });
  await app.register(partsFeature, { db });
  await app.register(inspectionsFeature, {
    db,
    blobs: deps.blobs,
    photoFiles,
    appTimeZone,
    followUps: actions,
    onPhotoWorker: (worker) => {
      metrics?.watchPhotoWorker(worker);
      deps.onPhotoWorker?.(worker);
    },
    ...(metrics ? { onUploadAnswered: metrics.uploadAnswered } : {}),
  });
  await app.register(dataSummaryFeature, { db });
  await app.register(scheduleFeature, { schedule });
  await app.register(actionsFeature, { actions });
  await app.register(analyticsFeature, { analytics });
  await app.register(reportsFeature, {
    db,
    blobs: deps.blobs,
    now,
    appTimeZone,
    cofAlertThreshold: config.cofAlertThreshold,
    retentionDays: config.reportRetentionDays,
    workers: config.reportWorkers,
    staleSeconds: config.reportJobStaleSeconds,
    jobsPerAdmin: config.reportJobsPerAdmin,
    jobsPerClient: config.reportJobsPerClient,
    databaseKind: database.kind,
    ...(metrics ? { onReportSettled: metrics.reportSettled } : {}),
    schedule,
    machines,
    actions,
    analytics,
  });
  await app.register(machinesFeature, { machines });
  await app.register(documentsFeature, { now, appTimeZone });
  await app.register(backupsFeature, { database, blobs: deps.blobs, backupDir: config.backupDir, schedule: config.backupSchedule });
  await app.register(fileToolsFeature, { db, blobs: deps.blobs, photoFiles, backupDir: config.backupDir, now });
  await app.register(apiDocsFeature);

  await app.register(webApp, { root: deps.webRoot ?? WEB_DIST_DIR, serverPaths: ['/metrics'] });
  return app;
}
