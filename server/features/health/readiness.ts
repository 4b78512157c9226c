/**
 * Whether this instance can serve (GET /api/ready): the database answers and has this build's
 * migrations, the blob store takes a write, and the instance is not stopping. A load balancer
 * may probe every second from several places, so the checks are shared: probes arriving
 * together wait for one check, and a result is reused for a short while (the blob store's
 * longer: it writes a file, or an object, each time).
 */
import type { ReadinessResponse } from '../../../common/schemas/auth.js';
import type { Database } from '../../db/client.js';
import { expectedMigrationMillis, schemaState, type SchemaState } from '../../db/schema-version.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ShutdownState } from './shutdown.js';

/** How long a database answer is reused: a lost database is seen within about a second. */
const DATABASE_CHECK_MS = 1_000;
/** How long a blob store answer is reused. */
const BLOB_CHECK_MS = 10_000;
/** A check that has not answered by then failed: a probe must answer before the balancer's own timeout. */
const CHECK_TIMEOUT_MS = 3_000;

export interface ReadinessDeps {
  database: Database;
  blobs: BlobStore;
  shutdown: ShutdownState;
  /** The `when` of this build's last migration; read from the migrations folder by default. */
  expectedMigration?: number;
  /** The clock the cached answers age by (tests move it). */
  nowMs?: () => number;
}

export interface Readiness {
  check(): Promise<ReadinessResponse>;
}

/** A check run at most once per `ttlMs`, probes that come meanwhile sharing its answer. */
function shared<T>(run: () => Promise<T>, ttlMs: number, nowMs: () => number): () => Promise<T> {
  let cached: { at: number; answer: Promise<T> } | undefined;
  return () => {
    const now = nowMs();
    if (!cached || now - cached.at >= ttlMs) cached = { at: now, answer: run() };
    return cached.answer;
  };
}

function withTimeout<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), CHECK_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createReadiness(deps: ReadinessDeps): Readiness {
  const nowMs = deps.nowMs ?? Date.now;
  const expected = deps.expectedMigration ?? expectedMigrationMillis();

  const database = shared(
    () =>
      withTimeout(
        schemaState(deps.database.db, expected).catch((): SchemaState | 'unreachable' => 'unreachable'),
        'unreachable' as const,
      ),
    DATABASE_CHECK_MS,
    nowMs,
  );
  const blobStore = shared(
    () =>
      withTimeout(
        deps.blobs.probeWrite().then(
          () => 'ok' as const,
          () => 'not-writable' as const,
        ),
        'not-writable' as const,
      ),
    BLOB_CHECK_MS,
    nowMs,
  );

  return {
    async check() {
      const lifecycle = deps.shutdown.draining ? 'draining' : 'serving';
      const [schema, blobs] = await Promise.all([database(), blobStore()]);
      const checks: ReadinessResponse['checks'] = {
        database: schema === 'unreachable' ? 'unreachable' : 'ok',
        migrations: schema === 'unreachable' ? 'unknown' : schema === 'current' ? 'ok' : 'behind',
        blobStore: blobs,
        lifecycle,
      };
      const ready = checks.database === 'ok' && checks.migrations === 'ok' && checks.blobStore === 'ok' && lifecycle === 'serving';
      return { status: ready ? 'ready' : 'not-ready', checks };
    },
  };
}
