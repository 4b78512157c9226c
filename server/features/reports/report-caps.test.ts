/**
 * Fair report queues (issue "Safe to put on a railway's network", item 6), through the API:
 * one user cannot fill the queue by varying a date. Past REPORT_JOBS_PER_ADMIN (5 here) or
 * REPORT_JOBS_PER_CLIENT (2) unfinished reports, a new one is refused with 429
 * TOO_MANY_REPORT_JOBS and nothing is queued; a report already asked for is still answered;
 * other users are not affected; once one of the user's reports is made they may ask again;
 * requests racing at cap - 1 queue exactly one; and the worker takes users in turn.
 *
 * The instance the requests go to makes no reports (REPORT_WORKERS 0), so what it queues
 * waits. A second instance on the same database makes them, and its blob store lets each
 * report's file be written only when the test says, so reports finish one at a time.
 */
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportJobResponseSchema } from '../../../common/schemas/reports.js';
import { buildApp } from '../../app.js';
import { jobs, reports } from '../../db/schema.js';
import type { PutOptions, StoredBlob } from '../../storage/blob-store.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { buildTestApp, TEST_CONFIG, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, createAndSignIn, errorOf } from '../../test/factories.js';
import { blobRoot, insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { until } from '../../test/server-process.js';

const SSE_TABLE = '/api/reports/sse-table';
/** Generous: the accepted requests each wait a moment for their job, on a busy 2-core machine. */
const TEST_MS = 120_000;

/**
 * The blob store of the instance that makes reports: a report's file is written only with a
 * permit, so the report stays running (its worker busy) until the test releases it.
 */
class HeldBlobStore extends DiskBlobStore {
  private permits = 0;
  private opened = false;
  private readonly waiting: Array<() => void> = [];

  override async putStream(source: Readable, options?: PutOptions): Promise<StoredBlob> {
    if (!this.opened) {
      if (this.permits > 0) this.permits -= 1;
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return super.putStream(source, options);
  }

  /** Lets one report write its file: the one waiting now, or the next. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.permits += 1;
  }

  /** Lets every report write its file from now on. */
  open(): void {
    this.opened = true;
    for (const next of this.waiting.splice(0)) next();
  }
}

let t: TestApp;
let held: HeldBlobStore | undefined;
let maker: FastifyInstance | undefined;
let cookies: Record<Who, string>;
const EMPLOYEE = { asha: 'ADMASHA', bala: 'ADMBALA', chitra: 'CLICHITRA' } as const;
type Who = keyof typeof EMPLOYEE;

beforeAll(async () => {
  t = await buildTestApp({ reportWorkers: 0 });
  const db = t.database.db;
  cookies = await createAndSignIn(t, {
    asha: { ...ADMIN, employeeId: EMPLOYEE.asha, name: 'Asha Admin' },
    bala: { ...ADMIN, employeeId: EMPLOYEE.bala, name: 'Bala Admin' },
    chitra: { ...CLIENT_RTM, employeeId: EMPLOYEE.chitra, name: 'Chitra Client' },
  });
  await insertInspectionRows(db, [
    inspectionRow({ type: 'CoF', date: '2026-11-20', cofValue: '0.21' }),
    inspectionRow({ type: 'CoF', date: '2026-11-21', cofValue: '0.27' }),
  ]);
}, TEST_MS);

afterAll(async () => {
  // Reports held mid-write would keep the maker's worker from stopping.
  held?.open();
  await maker?.close();
  await t?.close();
});

let day = 0;
/** A different report each time: the same records from another first date (how a flood varies its requests). */
const anotherFromDate = () => {
  day += 1;
  return `2026-10-${String(day).padStart(2, '0')}`;
};

const ask = (who: Who, fromDate: string) =>
  t.app.inject({ method: 'POST', url: SSE_TABLE, headers: { cookie: cookies[who] }, payload: { division: 'RTM/WR', fromDate, toDate: '2026-11-22' } });

/** Asks for a new report and expects it queued (202: nothing makes it yet, or it waits its turn). */
async function queued(who: Who, fromDate = anotherFromDate()): Promise<string> {
  const response = await ask(who, fromDate);
  expect(response.statusCode, response.body).toBe(202);
  return reportJobResponseSchema.parse(response.json()).reportId;
}

async function rowsOf(who: Who, statuses?: string[]): Promise<number> {
  const [row] = await t.database.db
    .select({ n: count() })
    .from(reports)
    .innerJoin(jobs, eq(jobs.id, reports.id))
    .where(and(eq(reports.requestedByEmployeeId, EMPLOYEE[who]), statuses ? inArray(jobs.status, statuses) : undefined));
  return row?.n ?? 0;
}

async function running(): Promise<{ id: string; requestedByEmployeeId: string }[]> {
  return t.database.db
    .select({ id: reports.id, requestedByEmployeeId: reports.requestedByEmployeeId })
    .from(reports)
    .innerJoin(jobs, eq(jobs.id, reports.id))
    .where(eq(jobs.status, 'running'));
}

const statusOf = async (id: string) => (await t.database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id)))[0]?.status;

const tooMany = (n: number) => `You have ${n} reports still being made. Please wait for one of them to finish, then ask again`;

describe('fair report queues', { timeout: TEST_MS }, () => {
  let ashaFirstDate = '';
  let ashaReports: string[] = [];
  let balaReport = '';
  let chitraReports: string[] = [];

  it('refuses one more report than the cap with 429 and queues nothing; a report already asked for is answered; other users are not affected', async () => {
    const dates = Array.from({ length: 5 }, anotherFromDate);
    ashaFirstDate = dates[0] ?? '';
    ashaReports = await Promise.all(dates.map((date) => queued('asha', date)));
    expect(new Set(ashaReports).size).toBe(5);

    const refused = await ask('asha', anotherFromDate());
    expect(refused.statusCode, refused.body).toBe(429);
    expect(errorOf(refused)).toMatchObject({ code: 'TOO_MANY_REPORT_JOBS', message: tooMany(5) });
    expect(await rowsOf('asha')).toBe(5);

    // The same request again is the report already queued; another Admin is not affected.
    const [again, bala] = await Promise.all([ask('asha', ashaFirstDate), queued('bala')]);
    expect(again.statusCode, again.body).toBe(202);
    expect(reportJobResponseSchema.parse(again.json()).reportId).toBe(ashaReports[0]);
    expect(await rowsOf('asha')).toBe(5);
    balaReport = bala;

    // A Client has a lower cap. (Asked after Bala's, so his is the older request.)
    chitraReports = await Promise.all([queued('chitra'), queued('chitra')]);

    const chitraRefused = await ask('chitra', anotherFromDate());
    expect(chitraRefused.statusCode, chitraRefused.body).toBe(429);
    expect(errorOf(chitraRefused)).toMatchObject({ code: 'TOO_MANY_REPORT_JOBS', message: tooMany(2) });
    expect(await rowsOf('chitra')).toBe(2);
    expect(await rowsOf('bala')).toBe(1);
  });

  it('lets a user ask again once one of their reports is made, makes another user’s report before their other queued ones, and queues exactly one of requests racing at cap - 1', async () => {
    expect(ashaReports).toHaveLength(5);
    held = new HeldBlobStore(blobRoot(t));
    maker = await buildApp({ config: { ...TEST_CONFIG, reportWorkers: 1 }, database: t.database, blobs: held, webRoot: path.join(os.tmpdir(), 'hkmi-no-web') });
    await maker.ready();

    // Everyone's requests wait; the oldest of those never served is Asha's.
    const [first] = await until('the maker to start a report', async () => {
      const now = await running();
      return now.length > 0 && now;
    });
    expect(first?.requestedByEmployeeId).toBe(EMPLOYEE.asha);
    expect(await running()).toHaveLength(1);

    held.release();
    await until('Asha’s first report to be made', async () => (await statusOf(first?.id ?? '')) === 'done');
    // Bala was never served: his report is next, before Asha's four still queued.
    const [next] = await until('the maker to start the next report', async () => {
      const now = await running();
      return now.length > 0 && now;
    });
    expect(next?.id).toBe(balaReport);
    expect(await rowsOf('asha', ['queued'])).toBe(4);

    // Four unfinished of five: three at once, one gets through.
    const answers = await Promise.all(Array.from({ length: 3 }, () => ask('asha', anotherFromDate())));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 429, 429]);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expect(errorOf(refused)).toMatchObject({ code: 'TOO_MANY_REPORT_JOBS', message: tooMany(5) });
    }
    expect(await rowsOf('asha', ['queued', 'running'])).toBe(5);
    expect(await rowsOf('asha')).toBe(6);

    // Bala's report is made; Chitra, never served either, is next.
    held.release();
    await until('Bala’s report to be made', async () => (await statusOf(balaReport)) === 'done');
    const [third] = await until('the maker to start the next report', async () => {
      const now = await running();
      return now.length > 0 && now;
    });
    expect(chitraReports).toContain(third?.id);
    held.open();
    const all = [...ashaReports, ...chitraReports];
    await until('every report to be made', async () => (await Promise.all(all.map(statusOf))).every((s) => s === 'done'));
  });
});
