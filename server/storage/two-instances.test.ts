/**
 * Several instances (issue 14, "Photos for several instances"): two real server processes, A
 * and B, on one PostgreSQL database and one S3 bucket (s3rver), each with its own empty
 * DATA_DIR, serve the same data to an API client that talks to either:
 * - a session made by A is honoured by B (no sticky sessions needed);
 * - a photo uploaded through A is listed by B, served by B byte for byte (GET, HEAD, Range),
 *   thumbnailed by B, zipped by B; it lives in the bucket and in no data folder;
 * - the same clientSubmissionId sent to A and then to B is one record;
 * - the cached counts and pages of each follow the other's writes at once (no TTL, no restart);
 * - a PDF report asked through one is followed and downloaded complete through the other;
 * - a record deleted through B is gone from A, and its photo and derived files from the bucket.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { inspectionListResponseSchema, type InspectionListResponse, type UploadResponse, uploadResponseSchema } from '../../common/schemas/inspection.js';
import { dataSummarySchema, type DataSummary, deleteRecordResponseSchema } from '../../common/schemas/records.js';
import { reportJobResponseSchema, type ReportJobResponse, type ReportSummary, reportSummarySchema } from '../../common/schemas/reports.js';
import { readZip } from '../test/inspections.js';
import { makeDistinctPhotos, sha256, uploadForm } from '../test/photos.js';
import { startS3Server, type TestS3Server } from '../test/s3-server.js';
import { cleanUpServerProcesses, type ServerProcess, signIn, startServer, tempDir, until } from '../test/server-process.js';
import { createPostgresTestDatabase, testDatabaseKind } from '../test/test-database.js';

const ADMIN = { employeeId: 'TWIN01', password: 'two instances pw' };
const DIVISION = 'RTM/WR';
/** Keys go under this prefix in the bucket (S3_PREFIX): `hkmi/ab/cd/<sha256>`. */
const S3_PREFIX = 'hkmi';
/** Bounds a wait that went wrong; every wait is for a condition. */
const WAIT_MS = 60_000;
const HASH_IN_NAME = /[0-9a-f]{64}/;

interface Instance {
  name: 'A' | 'B';
  server: ServerProcess;
  dataDir: string;
}

let s3: TestS3Server | undefined;
let a: Instance;
let b: Instance;
/** Made by signing in on A, sent to both. */
let cookie: string;
let photos: Buffer[];
/** A visit of two days ago: never "in the future", whatever the hour. */
let visitDate: string;

/** What the state of the test carries from one step to the next. */
const records: { viaA?: UploadResponse; viaB?: UploadResponse; twice?: UploadResponse } = {};

// ---------------------------------------------------------------------------------------------
// Talking to an instance, as an API client would

async function call(instance: Instance, url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${instance.server.base}${url}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string> | undefined) } });
}

async function json(instance: Instance, url: string, init: RequestInit = {}, status = 200): Promise<unknown> {
  const response = await call(instance, url, init);
  const body = await response.text();
  expect(response.status, `${init.method ?? 'GET'} ${url} on ${instance.name}: ${body}`).toBe(status);
  return JSON.parse(body);
}

async function bytes(instance: Instance, url: string, init: RequestInit = {}): Promise<{ response: Response; body: Buffer }> {
  const response = await call(instance, url, init);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

const postJson = (body: object): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const summaryOn = async (instance: Instance): Promise<DataSummary> => dataSummarySchema.parse(await json(instance, '/api/data-summary'));

const listOn = async (instance: Instance): Promise<InspectionListResponse> => inspectionListResponseSchema.parse(await json(instance, '/api/inspections?limit=100'));

/** The metadata a phone sends with a Service visit in RTM/WR. */
function serviceVisit(curveNumber: string, clientSubmissionId = randomUUID()): Record<string, unknown> {
  return {
    date: visitDate,
    type: 'Service',
    divisionRailway: DIVISION,
    section: 'RTM-NAD',
    curveNumber,
    line: 'Up',
    technicianId: ADMIN.employeeId,
    station1: 'Ratlam Jn',
    station2: 'Bangrod',
    railwayEngineer: 'SSE/P.Way/NAD',
    serviceUpdate: 'working-fine',
    isMachineWorking: 'yes',
    greaseDepth: '3.5',
    clientSubmissionId,
  };
}

async function upload(instance: Instance, metadata: Record<string, unknown>, photo: Buffer, status: 200 | 201): Promise<UploadResponse> {
  const answer = uploadResponseSchema.parse(await json(instance, '/api/inspections/upload', { method: 'POST', body: uploadForm(metadata, photo) }, status));
  expect(answer).toMatchObject({ imageHash: sha256(photo), imageSizeBytes: photo.length, imageWidth: 640, imageHeight: 480, duplicate: status === 200 });
  return answer;
}

function recorded(key: keyof typeof records): UploadResponse {
  const record = records[key];
  if (!record) throw new Error(`no record ${key}: an earlier step failed`);
  return record;
}

// ---------------------------------------------------------------------------------------------
// Reports

async function askForReport(instance: Instance, body: object): Promise<ReportJobResponse> {
  const response = await call(instance, '/api/reports/generate', postJson(body));
  const text = await response.text();
  expect([200, 202], `POST /api/reports/generate on ${instance.name}: ${text}`).toContain(response.status);
  return reportJobResponseSchema.parse(JSON.parse(text));
}

/** Polls GET /api/reports/{id} on `instance` (as the views do) until the report is done. */
function untilDone(instance: Instance, reportId: string): Promise<ReportSummary> {
  return until(
    `report ${reportId} to be done (polled on ${instance.name})`,
    async () => {
      const summary = reportSummarySchema.parse(await json(instance, `/api/reports/${reportId}`));
      if (summary.status === 'failed') throw new Error(`report ${reportId} failed: ${summary.error}`);
      return summary.status === 'done' && summary;
    },
    WAIT_MS,
  );
}

/** The whole PDF as `instance` serves it: complete, its length as announced and as recorded. */
async function downloadPdf(instance: Instance, summary: ReportSummary): Promise<Buffer> {
  const { response, body } = await bytes(instance, `/api/reports/download/${summary.reportId}`);
  expect(response.status, body.toString('latin1', 0, 300)).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(body.subarray(-1024).toString('latin1')).toContain('%%EOF');
  expect(response.headers.get('content-length')).toBe(String(body.length));
  expect(summary.fileSizeBytes).toBe(body.length);
  return body;
}

// ---------------------------------------------------------------------------------------------
// What is stored where

/** Every key in the bucket, with its size. */
async function bucketObjects(): Promise<Map<string, number>> {
  if (!s3) throw new Error('no S3 server');
  const objects = new Map<string, number>();
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken }));
    for (const object of page.Contents ?? []) if (object.Key) objects.set(object.Key, object.Size ?? -1);
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return objects;
}

const photoKey = (hash: string) => `${S3_PREFIX}/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;

/** The keys of a photo and of everything derived from it. */
const keysOfPhoto = (objects: Map<string, number>, hash: string) => [...objects.keys()].filter((key) => key.includes(hash)).sort();

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** Nothing was shared through disk: no blob file, nor any file named by a hash, in either data folder. */
async function expectNothingOnDisk(): Promise<void> {
  for (const instance of [a, b]) {
    expect(await filesUnder(path.join(instance.dataDir, 'blobs')), `${instance.name}'s DATA_DIR/blobs`).toEqual([]);
    expect((await filesUnder(instance.dataDir)).filter((file) => HASH_IN_NAME.test(file)), `${instance.name}'s DATA_DIR`).toEqual([]);
  }
}

// ---------------------------------------------------------------------------------------------

describe.runIf(testDatabaseKind === 'postgres')('two instances on one database and one bucket', () => {
  beforeAll(async () => {
    const [server, databaseUrl, made] = await Promise.all([startS3Server(), createPostgresTestDatabase(), makeDistinctPhotos(3, 640, 480, 23)]);
    s3 = server;
    photos = made;
    visitDate = dateInTimeZone(new Date(Date.now() - 2 * 86_400_000), 'Asia/Kolkata');
    const shared: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      DEMO: 'false',
      ADMIN_EMPLOYEE_ID: ADMIN.employeeId,
      ADMIN_PASSWORD: ADMIN.password,
      BLOB_STORE: 's3',
      S3_BUCKET: server.bucket,
      S3_ENDPOINT: server.endpoint,
      S3_REGION: server.region,
      S3_ACCESS_KEY_ID: server.accessKeyId,
      S3_SECRET_ACCESS_KEY: server.secretAccessKey,
      S3_PREFIX,
    };
    // At the same moment, as an orchestrator starts them: one makes the bootstrap admin, the other finds it.
    const start = async (name: 'A' | 'B'): Promise<Instance> => {
      const dataDir = await tempDir(`hkmi-instance-${name}-`);
      return { name, dataDir, server: await startServer({ ...shared, DATA_DIR: dataDir }) };
    };
    [a, b] = await Promise.all([start('A'), start('B')]);
    cookie = await signIn(a.server, ADMIN);
  }, 180_000);

  afterAll(async () => {
    await cleanUpServerProcesses();
    await s3?.stop();
  });

  it("each instance's cached counts and pages follow the other's writes at once", async () => {
    // B has answered (and cached) both before A writes; likewise A before B writes.
    expect(await summaryOn(b)).toMatchObject({ inspectionRecords: 0 });
    expect((await listOn(b)).total).toBe(0);

    records.viaA = await upload(a, serviceVisit('11'), photos[0] ?? Buffer.alloc(0), 201);
    expect(await summaryOn(b)).toMatchObject({ inspectionRecords: 1 });
    const seenByB = await listOn(b);
    expect(seenByB.total).toBe(1);
    expect(seenByB.logs.map((log) => log.recordId)).toEqual([records.viaA.recordId]);
    expect(seenByB.logs[0]).toMatchObject({ imageHash: records.viaA.imageHash, imageUrl: records.viaA.imageUrl, divisionRailway: DIVISION });

    expect(await summaryOn(a)).toMatchObject({ inspectionRecords: 1 });
    expect((await listOn(a)).total).toBe(1);
    records.viaB = await upload(b, serviceVisit('12'), photos[1] ?? Buffer.alloc(0), 201);
    expect(await summaryOn(a)).toMatchObject({ inspectionRecords: 2 });
    const seenByA = await listOn(a);
    expect(seenByA.total).toBe(2);
    expect(new Set(seenByA.logs.map((log) => log.recordId))).toEqual(new Set([records.viaA.recordId, records.viaB.recordId]));
  });

  it('serves a photo uploaded through A from B, byte for byte, out of the bucket', async () => {
    const record = recorded('viaA');
    const photo = photos[0] ?? Buffer.alloc(0);

    const whole = await bytes(b, record.imageUrl);
    expect(whole.response.status).toBe(200);
    expect(whole.response.headers.get('content-type')).toBe('image/jpeg');
    expect(whole.response.headers.get('content-length')).toBe(String(photo.length));
    expect(sha256(whole.body)).toBe(record.imageHash);

    // The review step's check (HEAD {imageUrl}).
    const head = await call(b, record.imageUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(photo.length));
    expect(head.headers.get('content-type')).toBe('image/jpeg');

    // A Range request (a download resumed on a poor line): exactly the bytes asked for, read from the bucket.
    const ranged = await bytes(b, record.imageUrl, { headers: { range: 'bytes=100-1099' } });
    expect(ranged.response.status).toBe(206);
    expect(ranged.response.headers.get('content-range')).toBe(`bytes 100-1099/${photo.length}`);
    expect(ranged.body.equals(photo.subarray(100, 1100))).toBe(true);

    // The thumbnail B makes is kept in the bucket beside the photo; A serves that one.
    const thumbnail = await bytes(b, `/api/inspections/${record.recordId}/thumbnail`);
    expect(thumbnail.response.status).toBe(200);
    expect(thumbnail.response.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(thumbnail.body).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    const objects = await bucketObjects();
    expect(objects.get(photoKey(record.imageHash))).toBe(photo.length);
    expect(objects.get(`${photoKey(record.imageHash)}.thumb-320.webp`)).toBe(thumbnail.body.length);
    const fromA = await bytes(a, `/api/inspections/${record.recordId}/thumbnail`);
    expect(fromA.response.status).toBe(200);
    expect(fromA.body.equals(thumbnail.body)).toBe(true);

    // Every photo is in the bucket, under its hash; none in either data folder.
    for (const hash of [record.imageHash, recorded('viaB').imageHash]) {
      expect([...objects.keys()].filter((key) => key.endsWith(hash))).toEqual([photoKey(hash)]);
    }
    await expectNothingOnDisk();
  });

  it('zips, on B, photos uploaded through A and through B', async () => {
    const viaA = recorded('viaA');
    const viaB = recorded('viaB');
    const { response, body } = await bytes(b, '/api/images/download', postJson({ imageIds: [viaA.recordId, viaB.recordId] }));
    expect(response.status, body.toString('utf8', 0, 300)).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-length')).toBe(String(body.length));
    const entries = await readZip(body);
    expect(entries.map((entry) => [entry.name, sha256(entry.bytes)])).toEqual([
      [viaA.fileName, viaA.imageHash],
      [viaB.fileName, viaB.imageHash],
    ]);
  });

  it('stores one record for a submission sent to A and then again to B', async () => {
    const photo = photos[2] ?? Buffer.alloc(0);
    const metadata = serviceVisit('13');
    const first = await upload(a, metadata, photo, 201);
    const again = await upload(b, metadata, photo, 200);
    expect(again).toEqual({ ...first, duplicate: true });
    records.twice = first;

    const list = await listOn(b);
    expect(list.total).toBe(3);
    expect(list.logs.filter((log) => log.imageHash === first.imageHash).map((log) => log.recordId)).toEqual([first.recordId]);
    expect(await summaryOn(a)).toMatchObject({ inspectionRecords: 3 });
    // Stored once; the photo worker of the instance that took it makes its thumbnail and print copy after the commit.
    const once = [photoKey(first.imageHash), `${photoKey(first.imageHash)}.print-1200.jpg`, `${photoKey(first.imageHash)}.thumb-320.webp`];
    await until('the photo worker to make the derived files', async () => keysOfPhoto(await bucketObjects(), first.imageHash).length === once.length, WAIT_MS);
    expect(keysOfPhoto(await bucketObjects(), first.imageHash)).toEqual(once);
  });

  it('follows and downloads through one instance a report asked for through the other', { timeout: 120_000 }, async () => {
    const request = { type: 'Service', division: DIVISION };
    // Asked through A, followed and downloaded through B.
    const jobOfA = await askForReport(a, request);
    expect(jobOfA).toMatchObject({ recordCount: 3, pdfUrl: `/api/reports/download/${jobOfA.reportId}` });
    const doneOfA = await untilDone(b, jobOfA.reportId);
    expect(doneOfA).toMatchObject({ kind: 'inspection-pdf', recordCount: 3, division: DIVISION });
    const pdf = await downloadPdf(b, doneOfA);
    expect(sha256((await bytes(a, jobOfA.pdfUrl)).body)).toBe(sha256(pdf));

    // A download cut short resumes on the other instance: exactly the bytes asked for.
    const part = await bytes(b, jobOfA.pdfUrl, { headers: { range: 'bytes=100-1123' } });
    expect(part.response.status).toBe(206);
    expect(part.response.headers.get('content-range')).toBe(`bytes 100-1123/${pdf.length}`);
    expect(part.response.headers.get('content-length')).toBe('1024');
    expect(part.body.equals(pdf.subarray(100, 1124))).toBe(true);
    const rest = await bytes(b, jobOfA.pdfUrl, { headers: { range: `bytes=${pdf.length - 500}-` } });
    expect(rest.response.status).toBe(206);
    expect(rest.body.equals(pdf.subarray(pdf.length - 500))).toBe(true);

    // Asked through B (another order: a new report, not the first reused), followed through A.
    const jobOfB = await askForReport(b, { ...request, order: 'curve' });
    expect(jobOfB.reportId).not.toBe(jobOfA.reportId);
    const doneOfB = await untilDone(a, jobOfB.reportId);
    expect(doneOfB).toMatchObject({ recordCount: 3, params: expect.objectContaining({ order: 'curve' }) });
    await downloadPdf(a, doneOfB);

    // The reports' print copies are in the bucket beside each photo, as are the PDFs; still nothing on disk.
    const objects = await bucketObjects();
    for (const record of [recorded('viaA'), recorded('viaB'), recorded('twice')]) {
      expect(objects.has(`${photoKey(record.imageHash)}.print-1200.jpg`), `the print copy of ${record.recordId}`).toBe(true);
    }
    expect(objects.get(photoKey(sha256(pdf)))).toBe(pdf.length);
    await expectNothingOnDisk();
  });

  it('removes, for A and from the bucket, a record deleted through B', async () => {
    const record = recorded('viaA');
    const kept = recorded('viaB');
    // A answers (and caches) before B deletes.
    expect(await summaryOn(a)).toMatchObject({ inspectionRecords: 3 });
    expect((await listOn(a)).logs.map((log) => log.recordId)).toContain(record.recordId);
    expect((await call(a, record.imageUrl)).status).toBe(200);
    const before = keysOfPhoto(await bucketObjects(), record.imageHash);
    expect(before).toEqual([photoKey(record.imageHash), `${photoKey(record.imageHash)}.print-1200.jpg`, `${photoKey(record.imageHash)}.thumb-320.webp`]);

    expect(deleteRecordResponseSchema.parse(await json(b, `/api/inspections/${record.recordId}`, { method: 'DELETE' }))).toEqual({
      recordId: record.recordId,
      deleted: true,
    });

    for (const url of [record.imageUrl, `/api/inspections/${record.recordId}/thumbnail`, `/api/image/download/${record.recordId}`]) {
      const response = await call(a, url);
      expect(response.status, `GET ${url} on A after the delete: ${await response.text()}`).toBe(404);
    }
    expect((await call(a, '/api/images/download', postJson({ imageIds: [record.recordId, kept.recordId] }))).status).toBe(404);
    expect(await summaryOn(a)).toMatchObject({ inspectionRecords: 2 });
    const list = await listOn(a);
    expect(list.total).toBe(2);
    expect(list.logs.map((log) => log.recordId)).not.toContain(record.recordId);

    // The photo and its thumbnail and print copy go right after the commit; the others stay.
    await until('the deleted photo and its variants to leave the bucket', async () => keysOfPhoto(await bucketObjects(), record.imageHash).length === 0, WAIT_MS);
    const objects = await bucketObjects();
    expect(keysOfPhoto(objects, kept.imageHash)).toEqual([photoKey(kept.imageHash), `${photoKey(kept.imageHash)}.print-1200.jpg`, `${photoKey(kept.imageHash)}.thumb-320.webp`]);
    const served = await bytes(a, kept.imageUrl);
    expect(served.response.status).toBe(200);
    expect(sha256(served.body)).toBe(kept.imageHash);
  });
});
