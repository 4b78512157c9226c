/**
 * The route fuzzer (issue 15): generated requests over every route the app registers, read
 * from its live route table, sent with app.inject as four callers (anonymous, a Technician, a
 * Client of RTM/WR, an Admin who is also an owner) to the real app on a real database.
 *
 * Inputs come from each route's own Zod schemas (./schema-arbitrary.ts: Zod -> JSON Schema ->
 * valid-ish values, then mutated), plus hostile strings and numbers, broken JSON, wrong content
 * types, malformed multipart, hostile path segments and query strings, and wrong methods
 * (./requests.ts, ./hostile.ts).
 *
 * For every request:
 *   - no 5xx answer;
 *   - every 4xx answer is JSON {code, message} with `code` a key of common/errors.ts whose
 *     status is the answer's status;
 *   - a refused (4xx) request wrote nothing: every table of the public schema has the same
 *     rows (count and content hash) before and after it (./table-snapshot.ts), except as
 *     EXCLUSIONS says.
 *
 * Runs: 5,000 requests with a fixed seed in `npm test`. More, or a replay:
 *   FUZZ_RUNS=50000 npx vitest run server/test/fuzz --project server-pglite
 *   FUZZ_SEED=123 FUZZ_RUNS=20000 npx vitest run server/test/fuzz ...
 *   FUZZ_SEED=20261115 FUZZ_PATH=4211 npx vitest run server/test/fuzz ...   (replays request 4211 alone)
 * A failure prints its seed, path (the request's index) and the request. A replayed request
 * runs on the fresh fixture, without the requests before it.
 *
 * Heavy routes (reports, exports, the file tools, the owner's documents) are reached as often
 * as any other, but only HEAVY_VALID_BUDGET requests that pass their schemas are sent to each
 * as a caller allowed to start the work; past that, such requests are sent anonymously (and
 * refused), so a run does not spend its time rendering PDFs.
 */
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/errors.js';
import { uploadMetadataSchema } from '../../../common/schemas/inspection.js';
import { curveCreateSchema, stationInputSchema } from '../../../common/schemas/register.js';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import { signIn } from '../factories.js';
import { testDatabaseKind } from '../test-database.js';
import { CALLER_IDS, CALLER_PASSWORD, seedFixture, type Fixture } from './fixture.js';
import { hostileString } from './hostile.js';
import { CALLERS, requestArbitrary, type CallerName, type FilePart, type FormPlan, type FuzzRequest } from './requests.js';
import { routeCollector, routeKey, type FuzzRoute } from './route-table.js';
import { jsonSchemaOf, mutated, validish, type Hints } from './schema-arbitrary.js';
import { nextTransactionId, publicTables, snapshotDiff, snapshotQuery, takeSnapshot, type Snapshot } from './table-snapshot.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261115);
const PATH = process.env.FUZZ_PATH;
/** A replay runs the one request at PATH, unless FUZZ_RUNS asks to go on from there. */
const RUN_COUNT = PATH && !process.env.FUZZ_RUNS ? 1 : RUNS;
/** Longer than any request takes on a loaded machine: past it, a request counts as hung. */
const HANG_MS = 60_000;

/**
 * Tables a refused request may change, each for a reason:
 * - login_throttle, on POST /api/auth/login: a refused sign-in (401) is counted, by design
 *   (server/features/auth/login-throttle.ts), and a 429 is answered from those counts;
 * - login_throttle, on POST /api/auth/change-password: a wrong current password (a 400 on
 *   that field) counts against the same throttle, so a borrowed session cannot guess it.
 * Nothing else: sessions are written only by a sign-in that succeeds, a sign-out or a change
 * of password that succeeds.
 */
const EXCLUSIONS: ReadonlyArray<{ route: string; table: string }> = [
  { route: 'POST /api/auth/login', table: 'login_throttle' },
  { route: 'POST /api/auth/change-password', table: 'login_throttle' },
];

/** Routes whose valid requests start heavy work (a PDF, a workbook, a pass over every photo). */
const HEAVY_ROUTES = new Set([
  'POST /api/reports/generate',
  'POST /api/reports/sse-table',
  'POST /api/reports/service-table',
  'POST /api/reports/curve-maintenance',
  'GET /api/machine-report',
  'GET /api/export/curves',
  'GET /api/export/stations',
  'GET /api/download/requirements',
  'GET /api/download/user-requirements',
  'GET /api/admin/files/status',
  'POST /api/admin/files/restore',
  'POST /api/admin/files/recreate',
]);
const HEAVY_VALID_BUDGET = Math.max(3, Math.round(RUNS / 1000));
/** A HEAD route runs its GET's handler: it is as heavy, and shares its budget. */
const heavyKey = (route: string) => route.replace(/^HEAD /, 'GET ');

/**
 * Bugs found by the fuzzer in code owned elsewhere, left for their owners. Their failures are
 * counted and printed but do not fail the run; each entry's reproducer is a test that checks
 * the bug is still there, so the owner who fixes one sees that test fail and takes the entry
 * out. This list is meant to be emptied.
 */
interface KnownBug {
  id: string;
  /** Whose file the fix is in. */
  owner: string;
  matches(request: FuzzRequest, response: LightMyRequestResponse, problems: readonly string[]): boolean;
  /**
   * Requests the bug makes hang: not sent (each would hold the run for HANG_MS) but counted and
   * printed, and the reproducer below still shows the hang.
   */
  holdBack?(request: FuzzRequest): boolean;
  /** The exact request that shows it. */
  reproduce: { caller: CallerName; method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: string | Buffer };
}
/**
 * Bugs the fuzzer found that are not fixed yet, each with its owner, how to tell it and a
 * reproducer. Empty: the six found (router errors not from the catalogue, a refused DELETE
 * moving change_counters, a multipart part without Content-Disposition hanging the upload,
 * metadata "null" answering 500, a bare 416) are fixed; fuzz-findings.test.ts and the
 * feature tests keep them fixed.
 */
const KNOWN_BUGS: KnownBug[] = [];


let t: TestApp;
let fixture: Fixture;
const { routes, onRoute } = routeCollector();
const cookies = new Map<CallerName, string>();
let tables: string[] = [];
let query = '';
let busyQuery = '';
/** The callers' password hash as the fixture made it. */
let passwordHash = '';

beforeAll(async () => {
  t = await buildTestApp({}, { onRoute });
  fixture = await seedFixture(t);
  for (const caller of CALLERS) if (caller !== 'anonymous') cookies.set(caller, await signIn(t.app, CALLER_IDS[caller], CALLER_PASSWORD));
  tables = await publicTables(t.database.db);
  query = snapshotQuery(tables);
  busyQuery = await backgroundWorkQuery();
  const result = (await t.database.db.execute(sql`select password_hash from users where employee_id = ${CALLER_IDS.admin}`)) as unknown as {
    rows: Array<{ password_hash: string }>;
  };
  passwordHash = result.rows[0]?.password_hash ?? '';
}, 120_000);
afterAll(() => t?.close());

/**
 * Work the app does after answering (report jobs, file tasks, the photo worker, backups,
 * photo files to delete): rows that say it is under way. After a request that wrote, the
 * fuzzer waits for none to be left, so a later refused request is not blamed for a
 * background write. Only the columns this schema has are asked.
 */
async function backgroundWorkQuery(): Promise<string> {
  const candidates = [
    { table: 'reports', column: 'status', where: `status in ('queued', 'running')` },
    // Since the job engine, report jobs, file tasks and backup runs are rows of `jobs`.
    { table: 'jobs', column: 'status', where: `status in ('queued', 'running')` },
    { table: 'file_tasks', column: 'state', where: `state = 'running'` },
    { table: 'backup_runs', column: 'state', where: `state = 'running'` },
    { table: 'inspection_logs', column: 'photo_state', where: `photo_state = 'pending'` },
    { table: 'blob_deletions', column: 'hash', where: 'true' },
  ];
  const result = (await t.database.db.execute(
    sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
  )) as unknown as { rows: Array<{ table_name: string; column_name: string }> };
  const present = new Set(result.rows.map((r) => `${r.table_name}.${r.column_name}`));
  const counts = candidates.filter((c) => present.has(`${c.table}.${c.column}`)).map((c) => `(select count(*) from public.${c.table} where ${c.where})`);
  return `select (${counts.join(' + ') || '0'})::int as n`;
}

async function busy(): Promise<boolean> {
  const result = (await t.database.db.execute(sql.raw(busyQuery))) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0]?.n ?? 0) > 0;
}

/** Waits (a bounded number of short pauses) until no background work is under way. */
async function settle(): Promise<void> {
  for (let i = 0; i < 1000 && (await busy()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Puts a caller back as the fixture made it (a fuzzed reset-password, deactivation or sign-out
 * may have changed it) and signs in again. Housekeeping of the test, outside any checked request.
 */
async function restoreCaller(caller: Exclude<CallerName, 'anonymous'>): Promise<void> {
  const employeeId = CALLER_IDS[caller];
  await t.database.db.execute(
    sql`update users set password_hash = ${passwordHash}, must_change_password = false, deactivated_at = null where employee_id = ${employeeId}`,
  );
  await t.database.db.execute(sql`delete from login_throttle`);
  cookies.set(caller, await signIn(t.app, employeeId, CALLER_PASSWORD));
}

/** Multipart forms of the two routes that read one, from the shared schemas of what they carry. */
function forms(hints: Hints, photo: Buffer): Record<string, FormPlan> {
  const metadata = validish(jsonSchemaOf(uploadMetadataSchema), hints);
  const metadataText = fc.oneof(
    { arbitrary: metadata.map((m) => JSON.stringify(m)), weight: 4 },
    { arbitrary: mutated(metadata).map((m) => JSON.stringify(m) ?? ''), weight: 3 },
    { arbitrary: hostileString.map((s) => s.slice(0, 70_000)), weight: 1 },
    { arbitrary: fc.constantFrom('{', '', 'null', '[]', '{"date":'), weight: 1 },
  );
  const tooBig = Buffer.concat([photo.subarray(0, 4), Buffer.alloc(10 * 1024 * 1024 + 1)]);
  const image: fc.Arbitrary<FilePart> = fc.record({
    filename: fc.constantFrom('inspection_image.jpg', 'photo.png', '../x.jpg', ''),
    contentType: fc.constantFrom('image/jpeg', 'image/png', 'text/plain', 'application/octet-stream'),
    data: fc.oneof(
      { arbitrary: fc.constant(photo), weight: 6 },
      {
        arbitrary: fc.constantFrom(
          Buffer.alloc(0),
          Buffer.from('this is a text file, not an image'),
          photo.subarray(0, 2000),
          Buffer.concat([photo.subarray(0, 600), Buffer.alloc(8000, 0x41)]),
          Buffer.from('\x89PNG\r\n\x1a\n'),
          Buffer.from('GIF89a'),
          Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(7000), Buffer.from([0xff, 0xd9])]),
        ),
        weight: 4,
      },
      { arbitrary: fc.constant(tooBig), weight: 1 },
    ),
  });
  const curveRow = validish(jsonSchemaOf(curveCreateSchema), hints);
  const stationRow = validish(jsonSchemaOf(stationInputSchema), hints);
  const csv = fc
    .oneof(fc.array(curveRow, { minLength: 1, maxLength: 4 }), fc.array(stationRow, { minLength: 1, maxLength: 4 }), fc.array(mutated(curveRow), { minLength: 1, maxLength: 3 }))
    .map((rows) => csvOf(rows));
  const sheet: fc.Arbitrary<FilePart> = fc.record({
    filename: fc.constantFrom('register.csv', 'register.xlsx', 'register.txt', ''),
    contentType: fc.constantFrom('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'),
    data: fc.oneof(
      { arbitrary: csv.map((text) => Buffer.from(text, 'utf8')), weight: 5 },
      { arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from('PK\x03\x04 not really a zip'), Buffer.from('\u0000\u0001\u0002'), photo, Buffer.from('a,b\n"unclosed,1\n')), weight: 2 },
    ),
  });
  return {
    'POST /api/inspections/upload': { fields: { metadata: metadataText }, files: { file: image } },
    'POST /api/import-excel': { fields: { type: fc.constantFrom('curves', 'stations', 'curves ', 'CURVES', 'both', '') }, files: { file: sheet } },
  };
}

function csvOf(rows: readonly unknown[]): string {
  const objects = rows.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r));
  const columns = [...new Set(objects.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => {
    const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [columns.join(','), ...objects.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n');
}

function describeRequest(request: FuzzRequest, index: number): string {
  const payload =
    request.payload === undefined
      ? ''
      : `\n    body (${request.bodyKind}, ${request.payload.length} ${typeof request.payload === 'string' ? 'chars' : 'bytes'}): ${JSON.stringify(
          (typeof request.payload === 'string' ? request.payload : request.payload.toString('latin1')).slice(0, 400),
        )}`;
  const url = request.url.length > 300 ? `${request.url.slice(0, 300)}... (${request.url.length} chars)` : request.url;
  return `[seed ${SEED} path ${index}] ${request.caller} ${request.method} ${url}\n    route ${request.route}, headers ${JSON.stringify(request.headers).slice(0, 300)}${payload}`;
}

/** The problems of one answer (empty when it keeps every property). */
function answerProblems(request: FuzzRequest, response: LightMyRequestResponse): string[] {
  const status = response.statusCode;
  if (status >= 500) return [`answered ${status}: ${response.body.slice(0, 300)}`];
  if (status < 400) return [];
  // Paths outside /api (a '..' in the path can lead there) belong to the web app, whose 404 is a page.
  const path = new URL(request.url, 'http://fuzz.invalid').pathname;
  if (!(path === '/api' || path.startsWith('/api/'))) return [];
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return [`answered ${status} as ${type || 'no content type'}, not JSON: ${JSON.stringify(response.body.slice(0, 200))}`];
  if (request.method === 'HEAD') return [];
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [`answered ${status} with a body that does not parse: ${JSON.stringify(response.body.slice(0, 200))}`];
  }
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
  const problems: string[] = [];
  if (typeof code !== 'string' || !(code in ERRORS)) problems.push(`answered ${status} with code ${JSON.stringify(code)}, not a code of common/errors.ts`);
  else if (ERRORS[code as keyof typeof ERRORS].status !== status) problems.push(`answered ${status} with code ${code}, whose status is ${ERRORS[code as keyof typeof ERRORS].status}`);
  if (typeof message !== 'string' || message === '') problems.push(`answered ${status} without a message`);
  return problems;
}

const clearsSession = (response: LightMyRequestResponse) => response.cookies.some((c) => c.name === 'hkmi_session' && c.value === '');

interface Failure {
  index: number;
  request: FuzzRequest;
  status: number;
  problems: string[];
  known: string | undefined;
}

describe('the route fuzzer', () => {
  it('reads the live route table, with the routes Zod schemas', () => {
    expect(routes.length).toBeGreaterThan(40);
    const keys = routes.map(routeKey);
    expect(keys).toContain('POST /api/inspections/upload');
    expect(keys).toContain('PUT /api/admin/curves/:section/:curveNumber/:line');
    expect(routes.find((r) => routeKey(r) === 'POST /api/consolidated-curves')?.body).toBeDefined();
    expect(routes.find((r) => routeKey(r) === 'GET /api/inspections')?.querystring).toBeDefined();
  });

  it('sees a row added, changed or removed in any table, and reads the tables again only after a write', async () => {
    const db = t.database.db;
    const xid = await nextTransactionId(db);
    const start = await takeSnapshot(db, query);
    // On PostgreSQL the counter is the whole server's: other test files move it too.
    if (testDatabaseKind === 'pglite') expect(await nextTransactionId(db)).toBe(xid);
    expect([...start.keys()]).toEqual(expect.arrayContaining(['users', 'inspection_logs', 'sessions', 'login_throttle']));
    await db.execute(sql`insert into login_throttle (key, window_start, failures) values ('fuzz:self-test', now(), 1)`);
    expect(await nextTransactionId(db)).not.toBe(xid);
    const added = await takeSnapshot(db, query);
    await db.execute(sql`update login_throttle set failures = 2 where key = 'fuzz:self-test'`);
    const changed = await takeSnapshot(db, query);
    await db.execute(sql`delete from login_throttle where key = 'fuzz:self-test'`);
    const removed = await takeSnapshot(db, query);
    expect(snapshotDiff(start, added, () => false)).toEqual([`login_throttle: ${start.get('login_throttle')?.rows} -> ${added.get('login_throttle')?.rows} rows`]);
    expect(snapshotDiff(added, changed, () => false)).toEqual([`login_throttle: content changed (${added.get('login_throttle')?.rows} rows)`]);
    expect(snapshotDiff(start, removed, () => false)).toEqual([]);
    expect(snapshotDiff(added, changed, (table) => table === 'login_throttle')).toEqual([]);
  });

  it(`answers ${RUN_COUNT} generated requests with no 5xx, JSON errors from the catalogue, and no write by a refused request`, async () => {
    const context = {
      hints: fixture.hints,
      forms: forms(fixture.hints, fixture.photo),
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'],
    };
    // Every route, HEAD routes less often: Fastify makes one for each GET, its body is not read
    // and it answers no body to check.
    const arbitrary = fc.oneof(...routes.map((route: FuzzRoute) => ({ arbitrary: requestArbitrary(route, context), weight: route.method === 'HEAD' ? 1 : 4 })));

    const failures: Failure[] = [];
    const statusCounts = new Map<number, number>();
    const heavyValid = new Map<string, number>();
    let demoted = 0;
    let sent = 0;
    const heldBack = new Map<string, number>();
    let index = PATH ? Number(PATH.split(':')[0]) : 0;
    // The state every table was in after the last request, and the transaction counter then:
    // while the counter stands still nothing was written, and the tables need not be read.
    let before: Snapshot = await takeSnapshot(t.database.db, query);
    let beforeXid = await nextTransactionId(t.database.db);
    const refresh = async () => {
      beforeXid = await nextTransactionId(t.database.db);
      before = await takeSnapshot(t.database.db, query);
    };

    const check = async (generated: FuzzRequest) => {
      const runIndex = index++;
      let request = generated;
      const heavy = HEAVY_ROUTES.has(heavyKey(request.route)) ? heavyKey(request.route) : undefined;
      if (heavy && request.caller !== 'anonymous' && request.method === request.route.split(' ')[0]) {
        if ((heavyValid.get(heavy) ?? 0) >= HEAVY_VALID_BUDGET && passesSchemas(request)) {
          request = { ...request, caller: 'anonymous' };
          demoted += 1;
        }
      }
      const cookie = request.caller === 'anonymous' ? undefined : cookies.get(request.caller);
      const heldBy = KNOWN_BUGS.find((bug) => bug.holdBack?.(request));
      if (heldBy) {
        heldBack.set(heldBy.id, (heldBack.get(heldBy.id) ?? 0) + 1);
        return true;
      }
      if (process.env.FUZZ_TRACE) console.info(describeRequest(request, runIndex));
      sent += 1;
      let response: LightMyRequestResponse;
      let timer: NodeJS.Timeout | undefined;
      try {
        const answer = t.app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: { ...request.headers, ...(cookie ? { cookie } : {}) },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        // A request that never ends is a bug to report, not a reason to hang the suite.
        const hung = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS / 1000} s`)), HANG_MS);
        });
        response = await Promise.race([answer, hung]);
      } catch (error) {
        failures.push({ index: runIndex, request, status: 0, problems: [`the request failed: ${String(error)}`], known: undefined });
        await refresh();
        return true;
      } finally {
        clearTimeout(timer);
      }
      const status = response.statusCode;
      statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
      const problems = answerProblems(request, response);

      const wrote = (await nextTransactionId(t.database.db)) !== beforeXid;
      if (status >= 400 && status < 500) {
        if (wrote) {
          const after = await takeSnapshot(t.database.db, query);
          const ignore = (table: string) => EXCLUSIONS.some((e) => e.table === table && e.route === request.route && request.method === request.route.split(' ')[0]);
          const written = snapshotDiff(before, after, ignore);
          if (written.length > 0) problems.push(`a refused request (${status}) wrote: ${written.join('; ')}`);
          await refresh();
        }
      } else {
        if (status < 300 && heavy) heavyValid.set(heavy, (heavyValid.get(heavy) ?? 0) + 1);
        if (wrote) {
          await settle();
          await refresh();
        }
      }

      if (problems.length > 0) {
        const known = KNOWN_BUGS.find((bug) => bug.matches(request, response, problems))?.id;
        failures.push({ index: runIndex, request, status, problems, known });
      }

      // Housekeeping: a caller signed out, reset or refused as signed out is signed in again;
      // sign-ins are let through again once throttled. The snapshot is then read again.
      let housekeeping = false;
      const code = status >= 400 && request.method !== 'HEAD' ? safeCode(response) : undefined;
      if (request.caller !== 'anonymous' && (status === 401 || code === 'PASSWORD_CHANGE_REQUIRED' || clearsSession(response))) {
        await restoreCaller(request.caller);
        housekeeping = true;
      }
      if (code === 'TOO_MANY_LOGIN_ATTEMPTS') {
        await t.database.db.execute(sql`delete from login_throttle`);
        housekeeping = true;
      }
      if (housekeeping) await refresh();
      return true;
    };

    await fc.assert(fc.asyncProperty(arbitrary, check), {
      seed: SEED,
      numRuns: RUN_COUNT,
      ...(PATH ? { path: PATH } : {}),
      endOnFailure: true,
    });

    const summary = [...statusCounts.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.info(`route fuzzer: ${sent} requests sent, seed ${SEED}${PATH ? ` from path ${PATH}` : ''}; statuses ${summary}; ${demoted} heavy requests sent anonymously`);
    for (const [id, n] of heldBack) console.warn(`route fuzzer: ${n} requests held back, not sent: KNOWN_BUGS "${id}" would hang them`);
    const knownHits = failures.filter((f) => f.known);
    if (knownHits.length > 0) {
      console.warn(`route fuzzer: ${knownHits.length} failures of KNOWN_BUGS (${[...new Set(knownHits.map((f) => f.known))].join(', ')}), left for their owners`);
    }
    const unknown = failures.filter((f) => !f.known);
    // One line per kind of failure (route and first problem, numbers blurred), first example shown.
    const kinds = new Map<string, Failure[]>();
    for (const f of unknown) {
      const kind = `${f.request.route} | ${(f.problems[0] ?? '').replace(/\d+/g, 'N').slice(0, 120)}`;
      kinds.set(kind, [...(kinds.get(kind) ?? []), f]);
    }
    const report = [...kinds.entries()].map(
      ([kind, list]) => `${list.length}x ${kind}\n  e.g. ${describeRequest(list[0]!.request, list[0]!.index)}\n    -> ${list[0]!.problems.join('\n    -> ')}`,
    );
    if (report.length > 0) console.error(`route fuzzer failures:\n${report.join('\n')}`);
    expect(report).toEqual([]);
  }, 1_800_000);
});

describe.each(KNOWN_BUGS)('known bug: $id (owner: $owner)', (bug) => {
  it('still shows: once this fails, the bug is fixed and its entry comes out of KNOWN_BUGS', async () => {
    const { caller, method, url, headers = {}, payload } = bug.reproduce;
    if (caller !== 'anonymous') await restoreCaller(caller);
    const cookie = caller === 'anonymous' ? undefined : cookies.get(caller);
    const request: FuzzRequest = { route: `${method} ${url}`, caller, method, url, headers, bodyKind: 'reproducer', ...(payload === undefined ? {} : { payload }) };
    const before = await takeSnapshot(t.database.db, query);
    let timer: NodeJS.Timeout | undefined;
    const response = await Promise.race([
      t.app.inject({ method, url, headers: { ...headers, ...(cookie ? { cookie } : {}) }, ...(payload === undefined ? {} : { payload }) }),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), 5_000);
      }),
    ]);
    clearTimeout(timer);
    if (!response) {
      // No answer: the bug is one that hangs, as its entry says.
      expect(bug.holdBack?.(request)).toBe(true);
      return;
    }
    const after = await takeSnapshot(t.database.db, query);
    const written = response.statusCode >= 400 && response.statusCode < 500 ? snapshotDiff(before, after, () => false) : [];
    const problems = [...answerProblems(request, response), ...written.map((w) => `a refused request (${response.statusCode}) wrote: ${w}`)];
    expect(problems).not.toEqual([]);
    expect(bug.matches(request, response, problems)).toBe(true);
  });
});

function safeCode(response: LightMyRequestResponse): string | undefined {
  try {
    const body = JSON.parse(response.body) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a request's JSON body and query pass its route's schemas (a valid request to a heavy route). */
function passesSchemas(request: FuzzRequest): boolean {
  const route = routes.find((r) => routeKey(r) === request.route);
  if (!route) return false;
  if (route.querystring) {
    const search = new URLSearchParams(request.url.split('?')[1] ?? '');
    const values: Record<string, string> = {};
    for (const [k, v] of search) values[k] = v;
    if (!route.querystring.safeParse(values).success) return false;
  }
  if (route.body) {
    if (typeof request.payload !== 'string' || !String(request.headers['content-type'] ?? '').startsWith('application/json')) return false;
    try {
      return route.body.safeParse(JSON.parse(request.payload)).success;
    } catch {
      return false;
    }
  }
  return true;
}
