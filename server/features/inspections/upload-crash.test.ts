/**
 * Uploads survive a crash (issue 14, "Done when" #1): the real server process, as `npm start`
 * runs it, takes 50 photo uploads at once and is killed with SIGKILL once some are
 * acknowledged and others are still in flight; started again on the same data folder or
 * database, it is sent every submission of the round again, as a phone's outbox would (same
 * clientSubmissionId, same bytes), until each is answered. Three such rounds, then:
 * - every upload acknowledged before the kill is there, its photo byte for byte, and every
 *   retry of it answered the same record;
 * - 150 records, one per clientSubmissionId (none stored twice);
 * - no photo file without a record, and none cut short under a photo's name.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectionListResponseSchema, type UploadResponse } from '../../../common/schemas/inspection.js';
import { openDatabase } from '../../db/client.js';
import { inspectionLogs } from '../../db/schema.js';
import { acknowledged, makeSubmissions, resend, send, type Submission } from '../../test/outbox.js';
import { sha256 } from '../../test/photos.js';
import { cleanUpServerProcesses, type ServerProcess, signIn, startServer, tempDir } from '../../test/server-process.js';
import { createPostgresTestDatabase, testDatabaseKind } from '../../test/test-database.js';

const ROUNDS = 3;
const UPLOADS_PER_ROUND = 50;
/** The kill comes once this many of the round's uploads are acknowledged (and some are not). */
const KILL_AFTER_ACKNOWLEDGED = 10;
/** Photo-sized JPEGs (about 300 KB) so that a kill falls while photos are being read and written. */
const PHOTO_WIDTH = 1600;
const PHOTO_HEIGHT = 1200;
const ADMIN = { employeeId: 'BOOT88', password: 'crash admin pw' };
const HASH_NAME = /^[0-9a-f]{64}$/;

afterAll(cleanUpServerProcesses);

// ---------------------------------------------------------------------------------------------
// One round: upload 50 at once, kill part way, restart, retry all

interface RoundResult {
  /** Answers to the first try that were 200/201, by clientSubmissionId. */
  acknowledged: Map<string, UploadResponse>;
  /** The answer to the retry after the restart, by clientSubmissionId. */
  retried: Map<string, { status: number; answer: UploadResponse }>;
  connectionErrors: string[];
  inFlightAtKill: number;
  /** Right after the kill: this round's photo files (named by hash) and *.tmp files in blobs/. */
  afterKill: { photoFiles: number; leftovers: number };
  /** The server that answered the retries, still running. */
  server: ServerProcess;
  cookie: string;
}

async function round(env: Record<string, string>, blobsRoot: string, submissions: Submission[]): Promise<RoundResult> {
  const server = await startServer(env);
  const cookie = await signIn(server, ADMIN);

  // All at once; the kill comes from the answer that makes KILL_AFTER_ACKNOWLEDGED, while
  // others are still in flight (waits on that, not on a time).
  let answeredOk = 0;
  let settled = 0;
  let inFlightAtKill = -1;
  const firstTries = await Promise.all(
    submissions.map((submission) =>
      send(server, cookie, submission).then((attempt) => {
        settled += 1;
        if (acknowledged(attempt)) answeredOk += 1;
        if (inFlightAtKill < 0 && answeredOk >= KILL_AFTER_ACKNOWLEDGED && settled < submissions.length) {
          inFlightAtKill = submissions.length - settled;
          server.child.kill('SIGKILL');
        }
        return attempt;
      }),
    ),
  );
  if (inFlightAtKill < 0) {
    throw new Error(`the server was never killed: ${answeredOk} of ${submissions.length} acknowledged\n${JSON.stringify(firstTries.filter((a) => !acknowledged(a)))}\n${server.output()}`);
  }
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });

  // Before the kill the server answered only 201 (all new); the rest lost their connection.
  const answeredOther = firstTries.filter((a) => a.kind === 'answered' && a.answer === undefined);
  expect(answeredOther, 'answers other than 201 before the kill').toEqual([]);
  const acknowledgedAnswers = new Map<string, UploadResponse>();
  const connectionErrors: string[] = [];
  for (const [i, attempt] of firstTries.entries()) {
    const submission = submissions[i];
    if (!submission) continue;
    if (acknowledged(attempt)) {
      expect(attempt.status).toBe(201);
      expect(attempt.answer).toMatchObject({ imageHash: submission.hash, imageSizeBytes: submission.photo.length, duplicate: false });
      acknowledgedAnswers.set(submission.clientSubmissionId, attempt.answer);
    } else if (attempt.kind === 'failed') {
      connectionErrors.push(attempt.error);
    }
  }

  // On disk right after the kill: every acknowledged photo is there, whole; the files of
  // uploads that were never answered are there too until their retries claim them.
  const roundHashes = new Set(submissions.map((s) => s.hash));
  const onDisk = await blobFiles(blobsRoot);
  const photoFilesOfRound = new Set(onDisk.photos.map((file) => path.basename(file)).filter((name) => roundHashes.has(name)));
  for (const answer of acknowledgedAnswers.values()) expect(photoFilesOfRound.has(answer.imageHash), `the photo of acknowledged ${answer.recordId} after the kill`).toBe(true);
  const afterKill = { photoFiles: photoFilesOfRound.size, leftovers: onDisk.leftovers.length };

  // The restart, on the same data, and every submission of the round again.
  const again = await startServer(env);
  const cookieAgain = await signIn(again, ADMIN);
  const retries = await Promise.all(submissions.map((submission) => resend(again, cookieAgain, submission)));
  const retried = new Map<string, { status: number; answer: UploadResponse }>();
  for (const [i, attempt] of retries.entries()) {
    const submission = submissions[i];
    if (!submission) continue;
    expect(attempt.answer, `the retry of ${submission.clientSubmissionId}`).toMatchObject({
      imageHash: submission.hash,
      imageSizeBytes: submission.photo.length,
      imageWidth: PHOTO_WIDTH,
      imageHeight: PHOTO_HEIGHT,
    });
    retried.set(submission.clientSubmissionId, { status: attempt.status, answer: attempt.answer });
  }
  return { acknowledged: acknowledgedAnswers, retried, connectionErrors, inFlightAtKill, afterKill, server: again, cookie: cookieAgain };
}

// ---------------------------------------------------------------------------------------------
// What is stored

async function getJson(server: ServerProcess, cookie: string, url: string): Promise<unknown> {
  const response = await fetch(`${server.base}${url}`, { headers: { cookie } });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return JSON.parse(body);
}

/** The sha256 of each record's photo as the API serves it, a few downloads at a time. */
async function servedPhotoHashes(server: ServerProcess, cookie: string, recordIds: string[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const queue = [...recordIds];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let recordId = queue.shift(); recordId !== undefined; recordId = queue.shift()) {
        const response = await fetch(`${server.base}/api/inspections/${recordId}/image`, { headers: { cookie } });
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(response.status, `GET the photo of ${recordId}`).toBe(200);
        hashes.set(recordId, sha256(bytes));
      }
    }),
  );
  return hashes;
}

/** Every file under blobs/, sorted into photos (named by their hash), write leftovers and the rest. */
async function blobFiles(root: string): Promise<{ photos: string[]; leftovers: string[]; others: string[] }> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const photos: string[] = [];
  const leftovers: string[] = [];
  const others: string[] = [];
  for (const file of files) {
    const name = path.basename(file);
    if (HASH_NAME.test(name)) photos.push(file);
    else if (name.endsWith('.tmp')) leftovers.push(file);
    else others.push(file);
  }
  return { photos, leftovers, others };
}

// ---------------------------------------------------------------------------------------------

describe('uploads when the server is killed part way', () => {
  it(`lose no acknowledged record, store none twice and leave no orphan photo (${testDatabaseKind})`, { timeout: 600_000 }, async () => {
    const dataDir = await tempDir('hkmi-upload-crash-');
    const databaseUrl = testDatabaseKind === 'postgres' ? await createPostgresTestDatabase() : undefined;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_EMPLOYEE_ID: ADMIN.employeeId,
      ADMIN_PASSWORD: ADMIN.password,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const blobsRoot = path.join(dataDir, 'blobs');
    const submissions = await makeSubmissions(ROUNDS * UPLOADS_PER_ROUND, { technicianId: ADMIN.employeeId, width: PHOTO_WIDTH, height: PHOTO_HEIGHT });
    expect(new Set(submissions.map((s) => s.hash)).size).toBe(submissions.length);
    expect(Math.min(...submissions.map((s) => s.photo.length))).toBeGreaterThan(150_000);

    const results: RoundResult[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const result = await round(env, blobsRoot, submissions.slice(r * UPLOADS_PER_ROUND, (r + 1) * UPLOADS_PER_ROUND));
      results.push(result);
      const storedUnacknowledged = [...result.retried].filter(([id, retry]) => !result.acknowledged.has(id) && retry.status === 200).length;
      console.log(
        `${testDatabaseKind} round ${r + 1}: ${result.acknowledged.size} acknowledged before the kill, ${result.inFlightAtKill} in flight at the kill, ` +
          `${result.connectionErrors.length} lost their connection (${[...new Set(result.connectionErrors)].join(', ')}); ` +
          `after the kill ${result.afterKill.photoFiles} photo files of the round and ${result.afterKill.leftovers} *.tmp files in blobs/; ` +
          `on the retry ${storedUnacknowledged} were found stored (200) though never acknowledged`,
      );
      if (r < ROUNDS - 1) {
        result.server.child.kill('SIGTERM');
        expect(await result.server.exited).toEqual({ code: 0, signal: null });
      }
    }

    // The kills really fell on uploads in flight: in some round requests lost their connection
    // to the server and were never acknowledged (so the checks below are not vacuous).
    expect(results.every((r) => r.acknowledged.size >= KILL_AFTER_ACKNOWLEDGED)).toBe(true);
    expect(results.some((r) => r.connectionErrors.length > 0 && r.acknowledged.size < UPLOADS_PER_ROUND)).toBe(true);

    // Every acknowledged upload: each retry answered the same record (200, a replay).
    const recordIdOf = new Map<string, string>();
    for (const result of results) {
      for (const [id, first] of result.acknowledged) {
        expect(result.retried.get(id), `the retry of acknowledged ${id}`).toMatchObject({
          status: 200,
          answer: { recordId: first.recordId, imageHash: first.imageHash, duplicate: true },
        });
      }
      for (const [id, retry] of result.retried) {
        expect(retry.answer.duplicate).toBe(retry.status === 200);
        recordIdOf.set(id, retry.answer.recordId);
      }
    }
    expect(recordIdOf.size).toBe(ROUNDS * UPLOADS_PER_ROUND);
    expect(new Set(recordIdOf.values()).size).toBe(ROUNDS * UPLOADS_PER_ROUND);

    // Through the API: 150 records, ours, each photo byte for byte what was sent.
    const last = results.at(-1);
    if (!last) throw new Error('no round ran');
    const list = inspectionListResponseSchema.parse(await getJson(last.server, last.cookie, '/api/inspections?limit=500'));
    expect(list.total).toBe(ROUNDS * UPLOADS_PER_ROUND);
    expect(new Set(list.logs.map((log) => log.recordId))).toEqual(new Set(recordIdOf.values()));
    const hashOfRecord = new Map(submissions.map((s) => [recordIdOf.get(s.clientSubmissionId) ?? '', s.hash]));
    for (const log of list.logs) expect(log.imageHash, log.recordId).toBe(hashOfRecord.get(log.recordId));
    const served = await servedPhotoHashes(last.server, last.cookie, [...recordIdOf.values()]);
    const acknowledgedIds = results.flatMap((r) => [...r.acknowledged.values()].map((a) => a.recordId));
    for (const recordId of acknowledgedIds) expect(served.get(recordId), `the photo of acknowledged ${recordId}`).toBe(hashOfRecord.get(recordId));
    for (const [recordId, hash] of served) expect(hash, `the photo of ${recordId}`).toBe(hashOfRecord.get(recordId));

    last.server.child.kill('SIGTERM');
    expect(await last.server.exited).toEqual({ code: 0, signal: null });

    // In the database: one row per clientSubmissionId, the record and photo it was answered.
    const database = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 1 } : { dataDir });
    let rows: Array<{ recordId: string; clientSubmissionId: string | null; imageHash: string | null }>;
    try {
      rows = await database.db
        .select({ recordId: inspectionLogs.recordId, clientSubmissionId: inspectionLogs.clientSubmissionId, imageHash: inspectionLogs.imageHash })
        .from(inspectionLogs);
    } finally {
      await database.close();
    }
    expect(rows).toHaveLength(ROUNDS * UPLOADS_PER_ROUND);
    expect(new Set(rows.map((row) => row.clientSubmissionId)).size).toBe(rows.length);
    const hashOfSubmission = new Map(submissions.map((s) => [s.clientSubmissionId, s.hash]));
    for (const row of rows) {
      expect(row.recordId, `the record of ${row.clientSubmissionId}`).toBe(recordIdOf.get(row.clientSubmissionId ?? ''));
      expect(row.imageHash, row.recordId).toBe(hashOfSubmission.get(row.clientSubmissionId ?? ''));
    }

    // On disk: a photo file for every record and none without one; every file named by a hash
    // is whole (its bytes hash to its name), and what a killed write left is only ever *.tmp.
    const blobs = await blobFiles(blobsRoot);
    const photoNames = blobs.photos.map((file) => path.basename(file));
    expect(new Set(photoNames).size).toBe(photoNames.length);
    expect(new Set(photoNames)).toEqual(new Set(rows.map((row) => row.imageHash)));
    for (const file of blobs.photos) {
      const name = path.basename(file);
      expect(path.relative(blobsRoot, file)).toBe(path.join(name.slice(0, 2), name.slice(2, 4), name));
      expect(sha256(await readFile(file)), file).toBe(name);
    }
    // What a killed write left is an incoming-*.tmp in the root, where the hourly sweep
    // (removeAbandonedWrites) finds it; nothing half-written sits beside the photos.
    for (const file of blobs.leftovers) expect(path.relative(blobsRoot, file)).toMatch(/^incoming-[0-9a-f-]+\.tmp$/);
    console.log(`${testDatabaseKind}: ${blobs.photos.length} photo files, ${blobs.leftovers.length} *.tmp leftovers of killed writes, ${blobs.others.length} other files`);
  });
});
