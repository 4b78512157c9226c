/**
 * A report job killed part way is finished after a restart (issue 12, "Done when"): the real
 * server process, as `npm start` runs it, makes an inspection PDF of several hundred photos;
 * it is killed with SIGKILL while the report is running, started again on the same data, and
 * the report is finished and downloads as a complete PDF (poppler's pdfinfo, pdftotext and
 * pdfimages read it). On PGlite the new process requeues the orphaned job at start; on
 * PostgreSQL it is claimed again once its heartbeat is older than REPORT_JOB_STALE_SECONDS.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { type ReportListResponse, reportListResponseSchema, type ReportSummary, reportSummarySchema } from '../../../common/schemas/reports.js';
import { openDatabase } from '../../db/client.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { makeDistinctPhotos, sha256 } from '../../test/photos.js';
import { cleanUpServerProcesses, type ServerProcess, signIn, startServer, tempDir, until } from '../../test/server-process.js';
import { createPostgresTestDatabase, testDatabaseKind } from '../../test/test-database.js';
import { findReport } from './repository.js';

const run = promisify(execFile);

/** Enough photos that the report takes seconds to make, so it can be killed part way. */
const PHOTOS = 400;
const PHOTO_WIDTH = 1280;
const PHOTO_HEIGHT = 960;
const ADMIN = { employeeId: 'BOOT77', password: 'restart admin pw' };

afterAll(cleanUpServerProcesses);

// ---------------------------------------------------------------------------------------------
// The server's answers

async function reportStatus(server: ServerProcess, cookie: string, reportId: string): Promise<ReportSummary> {
  const response = await fetch(`${server.base}/api/reports/${reportId}`, { headers: { cookie } });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return reportSummarySchema.parse(JSON.parse(body));
}

async function recentReports(server: ServerProcess, cookie: string): Promise<ReportListResponse['reports']> {
  const response = await fetch(`${server.base}/api/reports?kind=inspection-pdf`, { headers: { cookie } });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return reportListResponseSchema.parse(JSON.parse(body)).reports;
}

// ---------------------------------------------------------------------------------------------
// The data: Service records of RTM/WR, each with its own photo, written before the first start

/** Writes the records and their photos straight into the data the server will open. */
async function seed(dataDir: string, databaseUrl: string | undefined): Promise<string[]> {
  const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir });
  try {
    await database.migrate();
    const blobs = new DiskBlobStore(path.join(dataDir, 'blobs'));
    const photos = await makeDistinctPhotos(PHOTOS, PHOTO_WIDTH, PHOTO_HEIGHT, 7);
    const today = Date.now();
    const rows = [];
    for (const [i, photo] of photos.entries()) {
      const stored = await blobs.put(photo);
      // Visits of the last 30 days (never today: stored before the report is asked for).
      const date = dateInTimeZone(new Date(today - (1 + (i % 30)) * 86_400_000), 'Asia/Kolkata');
      rows.push(inspectionRow({ date }, { hash: stored.hash, sizeBytes: stored.sizeBytes, width: PHOTO_WIDTH, height: PHOTO_HEIGHT }));
    }
    expect(new Set(rows.map((r) => r.imageHash)).size).toBe(PHOTOS);
    await insertInspectionRows(database.db, rows);
    return rows.map((r) => r.recordId);
  } finally {
    await database.close();
  }
}

const pagesOf = (info: string) => Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);

// ---------------------------------------------------------------------------------------------

describe('a report job killed part way', () => {
  it(`is finished after a restart (${testDatabaseKind}): the whole PDF, every record and photo in it`, { timeout: 900_000 }, async () => {
    const dataDir = await tempDir('hkmi-restart-');
    const databaseUrl = testDatabaseKind === 'postgres' ? await createPostgresTestDatabase() : undefined;
    const recordIds = await seed(dataDir, databaseUrl);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_EMPLOYEE_ID: ADMIN.employeeId,
      ADMIN_PASSWORD: ADMIN.password,
      REPORT_JOB_STALE_SECONDS: '2',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };

    // First life: ask for the report (the request answers 202 after a moment, or not at all
    // once the process is killed), follow it as the view does, and kill the process mid-way.
    const first = await startServer(env);
    const cookie = await signIn(first, ADMIN);
    const asked = fetch(`${first.base}/api/reports/generate`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Service', division: 'RTM/WR', format: 'images' }),
    }).then(
      async (response) => ({ status: response.status, body: await response.text() }),
      () => undefined,
    );
    // Its ID is in the user's recent reports at once (the request itself answers a moment later).
    const reportId = await until('the report to be asked for', async () => (await recentReports(first, cookie))[0]?.reportId);
    // Part way: past the cover page (2%), some records placed.
    const running = await until('the report to be running part way', async () => {
      const report = await reportStatus(first, cookie, reportId);
      if (report.status === 'done' || report.status === 'failed') {
        throw new Error(`the report was ${report.status} before it could be killed: it needs more photos to take longer`);
      }
      return report.status === 'running' && report.progress > 2 && report;
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const answered = await asked;
    if (answered) expect(answered.status, answered.body).toBe(202);
    expect(running).toMatchObject({ reportId, kind: 'inspection-pdf', recordCount: PHOTOS, fileName: null });
    expect(running.progress).toBeLessThan(100);

    // Second life on the same data: the job is made again, to the end.
    const second = await startServer(env);
    const cookieAgain = await signIn(second, ADMIN);
    const done = await until('the report to be done after the restart', async () => {
      const report = await reportStatus(second, cookieAgain, reportId);
      if (report.status === 'failed') throw new Error(`the report failed after the restart: ${report.error}`);
      return report.status === 'done' && report;
    });
    expect(done).toMatchObject({ recordCount: PHOTOS, summary: { photosPrinted: PHOTOS, photosMissing: 0 }, error: null });

    const response = await fetch(`${second.base}${done.downloadUrl}`, { headers: { cookie: cookieAgain } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBe(done.fileSizeBytes);
    const file = path.join(dataDir, 'downloaded.pdf');
    await writeFile(file, bytes);

    // Complete: a cover page, then two records to a page; every record ID; one image per photo.
    const { stdout: info } = await run('pdfinfo', [file]);
    const pages = pagesOf(info);
    expect(pages).toBe(1 + Math.ceil(PHOTOS / 2));
    expect(done.summary).toMatchObject({ pages });
    const { stdout: text } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    const missing = recordIds.filter((id) => !text.includes(id));
    expect(missing).toEqual([]);
    expect(text).toContain(reportId);
    const { stdout: images } = await run('pdfimages', ['-list', file], { maxBuffer: 64 * 1024 * 1024 });
    const imageRows = images.split('\n').slice(2).filter((line) => line.trim() !== '');
    expect(imageRows).toHaveLength(PHOTOS);

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    // The row says it was started twice (killed once, made once) and is held by no one.
    const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir });
    try {
      expect(await findReport(database.db, reportId)).toMatchObject({ status: 'done', attempts: 2, claimedBy: null, progress: 100, fileHash: sha256(bytes) });
    } finally {
      await database.close();
    }
  });
});
