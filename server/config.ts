/**
 * The only reader of process.env. Every setting is parsed here with Zod; a bad value stops
 * the start with one line naming the variable.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseDurationSeconds } from '../common/rules/duration.js';
import { employeeIdProblem } from '../common/rules/employee-id.js';
import { DEFAULT_COF_ALERT_THRESHOLD } from '../common/rules/schedule.js';
import { ACTION_KINDS, type ActionDueDays, type ActionKind, DEFAULT_ACTION_DUE_DAYS } from '../common/rules/follow-up-actions.js';

const booleanText = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of true, false, 1, 0, yes, no, on, off',
  })
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v))
  .meta({ settingType: 'boolean (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`)' });

const employeeIdList = z.string().transform((v, ctx) => {
  const ids = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids) {
    const problem = employeeIdProblem(id);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: `'${id.slice(0, 60)}': ${problem}` });
      return z.NEVER;
    }
  }
  return ids;
}).meta({ settingType: 'comma-separated employee IDs' });

/**
 * FOLLOW_UP_DUE_DAYS: 'machine-not-working=2,part-stolen=7' overrides the days allowed for the
 * kinds it names; the others keep their defaults.
 */
function parseDueDays(text: string, ctx: z.RefinementCtx): ActionDueDays {
  const days: Record<ActionKind, number> = { ...DEFAULT_ACTION_DUE_DAYS };
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [kind, value] = item.split('=').map((s) => s.trim());
    if (!ACTION_KINDS.includes(kind as ActionKind)) {
      ctx.addIssue({ code: 'custom', message: `'${item.slice(0, 60)}': the kind must be one of ${ACTION_KINDS.join(', ')}` });
      return z.NEVER;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 365) {
      ctx.addIssue({ code: 'custom', message: `'${item.slice(0, 60)}': the days must be a whole number from 0 to 365` });
      return z.NEVER;
    }
    days[kind as ActionKind] = n;
  }
  return days;
}

/** A duration such as '45m', '12h' or '7d', in seconds. */
const duration = (fallback: string, min = 1, hint = "must be a duration such as '12h' or '7d'") =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const seconds = parseDurationSeconds(v);
      if (seconds === null || seconds < min) {
        ctx.addIssue({ code: 'custom', message: hint });
        return z.NEVER;
      }
      return seconds;
    })
    .meta({ settingType: 'duration (`90s`, `45m`, `12h`, `7d`)' });

/**
 * Which proxies' X-Forwarded-For (and -Host, -Proto) to believe: their number in front of the
 * server, or their addresses. `true` (believe any) is refused: the left-most X-Forwarded-For
 * entry is whatever the client wrote, so the per-address sign-in limit could be escaped and
 * logs forged.
 */
export type TrustProxy = false | number | string[];
/** proxy-addr's names for address ranges, as Fastify accepts them. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  return bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

const trustProxy = z
  .string()
  .default('false')
  .transform((v, ctx): TrustProxy => {
    const value = v.trim().toLowerCase();
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    if (['true', 'yes', 'on'].includes(value)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must name the proxies, not trust every one: the number of proxies in front of the server (1 for one reverse proxy) or their addresses (10.0.0.5, 10.0.0.0/24, loopback)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops < 1 || hops > 10) {
        ctx.addIssue({ code: 'custom', message: 'must be 1 to 10 proxies, or their addresses' });
        return z.NEVER;
      }
      return hops;
    }
    const items = value.split(',').map((item) => item.trim()).filter(Boolean);
    const bad = items.find((item) => !isProxyAddress(item));
    if (bad !== undefined || items.length === 0) {
      ctx.addIssue({ code: 'custom', message: `'${(bad ?? v).slice(0, 60)}' is not a number of proxies nor a proxy address or CIDR range (10.0.0.5, 10.0.0.0/24, loopback)` });
      return z.NEVER;
    }
    return items;
  })
  .meta({ settingType: 'number of proxies, or comma-separated addresses' });

/** Every setting, parsed from the environment; exported for the configuration reference (server/config-reference.ts). */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
    PORT: z.coerce.number({ error: 'must be a port number' }).int('must be a whole number').min(1, 'must be 1-65535').max(65535, 'must be 1-65535').default(5000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DEMO: booleanText.optional(),
    ALLOW_DEMO_IN_PRODUCTION: booleanText.default(false),
    ADMIN_EMPLOYEE_ID: z
      .string()
      .trim()
      .superRefine((id, ctx) => {
        const problem = employeeIdProblem(id);
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem.replace(/^Employee ID /, '') });
      })
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters').optional(),
    OWNER_EMPLOYEE_IDS: employeeIdList.default([]),
    SESSION_TTL: duration('7d'),
    SESSION_MAX_AGE: duration('30d'),
    REQUEST_TIMEOUT: duration('5m', 1, "must be a duration such as '90s' or '5m'"),
    APP_TIMEZONE: z
      .string()
      .default('Asia/Kolkata')
      .refine(isKnownTimeZone, 'must be an IANA time zone such as Asia/Kolkata'),
    COF_ALERT_THRESHOLD: z.coerce
      .number({ error: 'must be a number such as 0.25' })
      .gt(0, 'must be between 0 and 1')
      .lt(1, 'must be between 0 and 1')
      .default(DEFAULT_COF_ALERT_THRESHOLD),
    FOLLOW_UP_DUE_DAYS: z
      .string()
      .default('')
      .transform((text, ctx) => parseDueDays(text, ctx)),
    REPORT_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be 1 to 365')
      .max(365, 'must be 1 to 365')
      .default(7),
    REPORT_WORKERS: z.coerce
      .number({ error: 'must be a number of reports' })
      .int('must be a whole number')
      .min(1, 'must be 1 to 16')
      .max(16, 'must be 1 to 16')
      .default(1),
    REPORT_JOB_STALE_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(2, 'must be 2 to 3600')
      .max(3600, 'must be 2 to 3600')
      .default(60),
    // Fair report queues: how many unfinished reports (queued or being made) one user may have.
    REPORT_JOBS_PER_ADMIN: z.coerce
      .number({ error: 'must be a number of reports' })
      .int('must be a whole number')
      .min(1, 'must be 1 to 100')
      .max(100, 'must be 1 to 100')
      .default(5),
    REPORT_JOBS_PER_CLIENT: z.coerce
      .number({ error: 'must be a number of reports' })
      .int('must be a whole number')
      .min(1, 'must be 1 to 100')
      .max(100, 'must be 1 to 100')
      .default(2),
    BACKUP_DIR: z.string().min(1, 'must not be empty').optional(),
    BACKUP_INTERVAL: duration('24h', 60, "must be a duration of a minute or more, such as '6h' or '24h'"),
    BACKUP_KEEP: z.coerce
      .number({ error: 'must be a number of backups' })
      .int('must be a whole number of backups')
      .min(1, 'must be 1 to 1000')
      .max(1000, 'must be 1 to 1000')
      .default(7),
    BLOB_STORE: z.enum(['disk', 's3'], { error: 'must be disk or s3' }).default('disk'),
    S3_BUCKET: z.string().min(1, 'must not be empty').optional(),
    S3_ENDPOINT: z.url({ error: 'must be a URL such as https://s3.example.com' }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, 'must be a key prefix of letters, digits and / - _ . ! * \' ( )')
      .optional(),
    S3_FORCE_PATH_STYLE: booleanText.optional(),
    // Prometheus's bearer token for GET /metrics; unset, there is no /metrics (404). A secret like
    // ADMIN_PASSWORD: long enough not to be guessed, and sent in a header, so printable ASCII.
    METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .max(200, 'must be at most 200 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in an Authorization header)')
      .optional(),
    // How long a stopping instance keeps serving while /api/ready answers 503, so a load
    // balancer that probes every few seconds takes it out before it refuses connections.
    SHUTDOWN_DELAY_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(0, 'must be 0 to 300')
      .max(300, 'must be 0 to 300')
      .default(0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be fatal, error, warn, info, debug, trace or silent' }).default('info'),
    LOG_FORMAT: z.enum(['pretty', 'json'], { error: 'must be pretty or json' }).optional(),
    TRUST_PROXY: trustProxy,
    ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((v, ctx) => {
        const origins: string[] = [];
        for (const item of v.split(',').map((s) => s.trim()).filter(Boolean)) {
          let url: URL | null = null;
          try {
            url = new URL(item);
          } catch {
            url = null;
          }
          if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== item.replace(/\/$/, '')) {
            ctx.addIssue({ code: 'custom', message: `'${item}' is not an origin such as https://field.example.org (scheme and host, no path)` });
            return z.NEVER;
          }
          origins.push(url.origin);
        }
        return origins;
      }),
  })
  .superRefine((env, ctx) => {
    if (env.ADMIN_EMPLOYEE_ID && !env.ADMIN_PASSWORD) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'is required when ADMIN_EMPLOYEE_ID is set' });
    }
    if (env.BLOB_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when BLOB_STORE is s3' });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: 'custom', path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'], message: 'must be set together with the other S3 key' });
    }
    if (env.ADMIN_PASSWORD && !env.ADMIN_EMPLOYEE_ID) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_EMPLOYEE_ID'], message: 'is required when ADMIN_PASSWORD is set' });
    }
    // The demo accounts' password is published (README, login screen): a production build runs
    // them only when told twice.
    if (env.NODE_ENV === 'production' && env.DEMO === true && !env.ALLOW_DEMO_IN_PRODUCTION) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEMO'],
        message: 'must not be on in production (NODE_ENV=production): the demo accounts have a published password. Set ALLOW_DEMO_IN_PRODUCTION=true as well to run a demo on a production build',
      });
    }
    if (env.SESSION_MAX_AGE < env.SESSION_TTL) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_MAX_AGE'], message: 'must be at least SESSION_TTL' });
    }
  });

/** The settings' names: the environment variables the server reads. */
export type SettingName = keyof typeof envSchema.shape;

/**
 * What each setting does, for docs/configuration.md (`npm run docs:config` writes it from the
 * schema above and this table; server/config-reference.test.ts fails when the file differs or a
 * setting has no entry here). `unset`: what an unset setting without a default means.
 */
export const SETTING_DESCRIPTIONS: { [name in SettingName]: { does: string; unset?: string } } = {
  NODE_ENV: { does: '`production` turns demo data off by default, refuses `DEMO=true` without `ALLOW_DEMO_IN_PRODUCTION` and writes JSON log lines' },
  PORT: { does: 'the one port that serves the web app and the API' },
  HOST: { does: 'the address to listen on' },
  DATA_DIR: { does: 'the embedded database (`DATA_DIR/pglite`), photos with `BLOB_STORE=disk` (`DATA_DIR/blobs`), the control socket and temp files; owner-only (0700)' },
  DATABASE_URL: { does: '`postgres://user:password@host:5432/db`: use this PostgreSQL database', unset: 'the embedded database (PGlite) in `DATA_DIR/pglite`, for one instance' },
  DEMO: { does: 'create the demo users and data; demo accounts sign in only while it is on (README, "Demo sign-ins")', unset: 'on with the embedded database outside production, else off' },
  ALLOW_DEMO_IN_PRODUCTION: { does: 'with `NODE_ENV=production`, `DEMO=true` is refused at start unless this is `true` too (the demo password is published)' },
  ADMIN_EMPLOYEE_ID: { does: 'an Admin made at start if this employee ID does not exist yet; needs `ADMIN_PASSWORD`', unset: 'no Admin is made (`npm run create-admin` makes one)' },
  ADMIN_PASSWORD: { does: 'the password (8-200 characters) of the Admin `ADMIN_EMPLOYEE_ID` makes, used only when the account is made; needs `ADMIN_EMPLOYEE_ID`' },
  OWNER_EMPLOYEE_IDS: { does: 'Admins with the owner rights (machine-dashboard editing, requirement documents, managing owner accounts)' },
  SESSION_TTL: { does: 'how long a sign-in lasts unused; a session used after half its life is extended' },
  SESSION_MAX_AGE: { does: 'the absolute lifetime of a session from its sign-in, however much it is used; at least `SESSION_TTL`' },
  REQUEST_TIMEOUT: { does: 'a request whose body has not fully arrived by then is answered `408 REQUEST_TIMEOUT` and its connection closed (a 10 MB photo on a very poor line fits)' },
  APP_TIMEZONE: { does: 'the railway\'s IANA time zone, for business dates (the schedule, report dates, file names)' },
  COF_ALERT_THRESHOLD: { does: 'a last CoF reading above this marks the curve "CoF high: follow up" (between 0 and 1, exclusive)' },
  FOLLOW_UP_DUE_DAYS: {
    does: 'days allowed to fix each kind of follow-up action, 0-365, as `kind=days` pairs naming only the kinds to change, e.g. `machine-not-working=1`; empty: `' +
      Object.entries(DEFAULT_ACTION_DUE_DAYS).map(([kind, days]) => `${kind}=${days}`).join(',') +
      '`',
  },
  REPORT_RETENTION_DAYS: { does: 'days a made report is kept for download (and reused when asked again)' },
  REPORT_WORKERS: { does: 'reports one instance makes at once; the rest wait in the queue for any instance' },
  REPORT_JOB_STALE_SECONDS: { does: 'a report whose instance sent no heartbeat for this long is made again by another' },
  REPORT_JOBS_PER_ADMIN: { does: 'reports an Admin may have queued or being made at once; one more is refused with `429 TOO_MANY_REPORT_JOBS` until one finishes' },
  REPORT_JOBS_PER_CLIENT: { does: 'the same for a Client' },
  BACKUP_DIR: { does: 'the server makes a backup here every `BACKUP_INTERVAL` (one for all instances: storage every instance sees, not the data disk); the file tools restore photos from here; owner-only (0700)', unset: 'no scheduled backups; `npm run backup` and the file tools use `./backups`' },
  BACKUP_INTERVAL: { does: 'how often the scheduled backup is made, a minute or more; one per interval however many instances run' },
  BACKUP_KEEP: { does: 'finished backups kept in `BACKUP_DIR`; older ones and the photos only they held are removed' },
  BLOB_STORE: { does: 'where photos and report files live: `disk` (`DATA_DIR/blobs`, one instance) or `s3` (an S3-compatible bucket: AWS S3, MinIO, Ceph; needed for several instances)' },
  S3_BUCKET: { does: 'the bucket; required with `BLOB_STORE=s3`' },
  S3_ENDPOINT: { does: 'the S3 server, e.g. `http://minio:9000`; when set, the bucket is addressed by path', unset: 'AWS S3' },
  S3_REGION: { does: 'the bucket\'s region' },
  S3_ACCESS_KEY_ID: { does: 'the S3 access key; set both keys or neither', unset: 'the AWS SDK\'s own chain (environment, instance role)' },
  S3_SECRET_ACCESS_KEY: { does: 'the S3 secret key; set both keys or neither', unset: 'the AWS SDK\'s own chain' },
  S3_PREFIX: { does: 'a key prefix, to share a bucket (`hkmi/prod`)', unset: 'keys at the bucket\'s top' },
  S3_FORCE_PATH_STYLE: { does: 'address the bucket by path (`http://host/bucket/key`) rather than by host name', unset: 'by path when `S3_ENDPOINT` is set, else by host name' },
  LOG_LEVEL: { does: 'the least severe log lines written; `info` shows the API traffic and what went wrong (README, "Logs")' },
  LOG_FORMAT: { does: '`pretty` (readable lines for a terminal) or `json` (pino\'s JSON lines, for a log collector)', unset: '`json` in production or when the output is not a terminal, else `pretty`' },
  TRUST_PROXY: { does: 'the reverse proxies in front of the server whose `X-Forwarded-For`, `-Host` and `-Proto` are believed: their number (`1` for one proxy) or their addresses (`10.0.0.5`, `10.0.0.0/24`, `loopback`); `false`: none; `true` is refused (README, "Behind a reverse proxy")' },
  ALLOWED_ORIGINS: { does: 'comma-separated origins (`https://field.example.org`) besides the server\'s own whose pages may send writes (README, "Cross-site requests")' },
  METRICS_TOKEN: {
    does: 'Prometheus metrics at `GET /metrics` for a caller sending `Authorization: Bearer <token>` (16-200 printable characters, no spaces; README, "Monitoring")',
    unset: 'no `/metrics` (404) and nothing is counted',
  },
  SHUTDOWN_DELAY_SECONDS: {
    does: 'on SIGTERM, seconds the instance keeps serving while `GET /api/ready` answers 503, so a load balancer that probes takes it out first (0-300; e.g. the probe interval times its failure threshold)',
  },
};

function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Set: PostgreSQL. Unset: PGlite under dataDir. */
  databaseUrl: string | undefined;
  demo: boolean;
  bootstrapAdmin: { employeeId: string; password: string } | undefined;
  ownerEmployeeIds: string[];
  /** A session not used for this long ends (sliding: use extends it). */
  sessionTtlSeconds: number;
  /** A session ends this long after its sign-in, however much it is used. */
  sessionMaxAgeSeconds: number;
  /** A request whose whole body has not arrived by then is answered 408 and its connection closed. */
  requestTimeoutSeconds: number;
  appTimeZone: string;
  /** A CoF reading above this marks its curve "CoF high: follow up" (common/rules/schedule.ts). */
  cofAlertThreshold: number;
  /** Days allowed to fix each kind of follow-up action (common/rules/follow-up-actions.ts). */
  followUpDueDays: ActionDueDays;
  /** Days a made report is kept for download (and reused). */
  reportRetentionDays: number;
  /** Reports made at once by one instance; the rest wait their turn in the queue. */
  reportWorkers: number;
  /** A report whose instance sent no heartbeat for this long is made again by another. */
  reportJobStaleSeconds: number;
  /** Unfinished reports (queued or being made) an Admin may have at once; one more is refused with 429. */
  reportJobsPerAdmin: number;
  /** The same for a Client. */
  reportJobsPerClient: number;
  /** Where backups go: BACKUP_DIR, else ./backups for `npm run backup`. The file tools restore photos from here. */
  backupDir: string;
  /** Set (BACKUP_DIR given): the server makes a backup every intervalSeconds and keeps the newest `keep`. */
  backupSchedule: { intervalSeconds: number; keep: number } | undefined;
  blobStore: { kind: 'disk' } | { kind: 's3'; bucket: string; prefix: string; endpoint: string | undefined; region: string; accessKeyId: string | undefined; secretAccessKey: string | undefined; forcePathStyle: boolean };
  /** The bearer token GET /metrics asks for (METRICS_TOKEN); unset: no metrics are kept and /metrics is a 404. */
  metricsToken: string | undefined;
  /** Seconds a stopping instance keeps serving, not ready, before it refuses connections (SHUTDOWN_DELAY_SECONDS). */
  shutdownDelaySeconds: number;
  logLevel: string;
  /** json: pino's JSON lines (production, a log collector); pretty: readable lines for a terminal. */
  logFormat: 'pretty' | 'json';
  /** The proxies whose X-Forwarded-* headers are believed (TRUST_PROXY); false: none. */
  trustProxy: TrustProxy;
  /** Origins besides the server's own whose pages may send writes (ALLOWED_ORIGINS). */
  allowedOrigins: string[];
}

export class ConfigError extends Error {}

/** `stdoutIsTty`: whether the logs go to a terminal (they default to readable lines there). */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  { stdoutIsTty = process.stdout.isTTY === true }: { stdoutIsTty?: boolean } = {},
): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is not valid'}`);
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    // Demo data is for trying the product: on by default only for the embedded database
    // outside production.
    demo: e.DEMO ?? (e.NODE_ENV !== 'production' && !e.DATABASE_URL),
    bootstrapAdmin:
      e.ADMIN_EMPLOYEE_ID && e.ADMIN_PASSWORD
        ? { employeeId: e.ADMIN_EMPLOYEE_ID, password: e.ADMIN_PASSWORD }
        : undefined,
    ownerEmployeeIds: e.OWNER_EMPLOYEE_IDS,
    sessionTtlSeconds: e.SESSION_TTL,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT,
    appTimeZone: e.APP_TIMEZONE,
    cofAlertThreshold: e.COF_ALERT_THRESHOLD,
    followUpDueDays: e.FOLLOW_UP_DUE_DAYS,
    reportRetentionDays: e.REPORT_RETENTION_DAYS,
    reportWorkers: e.REPORT_WORKERS,
    reportJobStaleSeconds: e.REPORT_JOB_STALE_SECONDS,
    reportJobsPerAdmin: e.REPORT_JOBS_PER_ADMIN,
    reportJobsPerClient: e.REPORT_JOBS_PER_CLIENT,
    backupDir: path.resolve(e.BACKUP_DIR ?? 'backups'),
    backupSchedule: e.BACKUP_DIR ? { intervalSeconds: e.BACKUP_INTERVAL, keep: e.BACKUP_KEEP } : undefined,
    blobStore:
      e.BLOB_STORE === 's3'
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET ?? '',
            // One trailing slash, so keys read prefix/ab/cd/<hash>.
            prefix: e.S3_PREFIX ? `${e.S3_PREFIX.replace(/\/+$/, '')}/` : '',
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            // Self-hosted S3 servers (MinIO, Ceph, s3rver) are addressed by path; AWS by host name.
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
          }
        : { kind: 'disk' },
    metricsToken: e.METRICS_TOKEN,
    shutdownDelaySeconds: e.SHUTDOWN_DELAY_SECONDS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV !== 'production' && stdoutIsTty ? 'pretty' : 'json'),
    trustProxy: e.TRUST_PROXY,
    allowedOrigins: e.ALLOWED_ORIGINS,
  };
}
