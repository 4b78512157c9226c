import { randomInt, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs, type TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { DEMO_PASSWORD } from './helpers.js';

/** The demo technician whose uploads the records specs own (offline specs use TEC2003-TEC2005). */
export const RECORDS_TECHNICIAN = 'TEC2002';

/** The e2e server's blob store (scripts/e2e-server.mjs): DATA_DIR .tmp/e2e-data. */
const BLOB_ROOT = path.join(import.meta.dirname, '..', '..', '.tmp', 'e2e-data', 'blobs');

export interface UploadedRecord {
  recordId: string;
  imageHash: string;
}

/**
 * A real JPEG whose bytes no other test makes: photos are stored by their hash, so two records
 * with the same bytes would share one file, and deleting it would break the other's photo.
 */
async function uniqueJpeg(): Promise<Buffer> {
  const channel = () => randomInt(40, 220);
  const rects = Array.from({ length: 12 }, () => {
    const [x, y, w, h] = [randomInt(0, 1100), randomInt(0, 600), randomInt(40, 300), randomInt(40, 200)];
    return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="rgb(${channel()},${channel()},${channel()})"/>`;
  });
  return sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: channel(), g: channel(), b: channel() } } })
    .composite([{ input: Buffer.from(`<svg width="1280" height="720">${rects.join('')}</svg>`), top: 0, left: 0 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Uploads `count` CoF records as the demo technician through the API, all dated `date`, so
 * that their record IDs share the prefix `INS-YYYYMMDD` and a record ID search finds exactly
 * them. Each spec uses a date of its own, long past, that neither the demo data nor other
 * specs use.
 */
export async function uploadRecords(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  date: string,
  count: number,
): Promise<UploadedRecord[]> {
  const technician: APIRequestContext = await playwright.request.newContext({ baseURL });
  try {
    const login = await technician.post('/api/auth/login', { data: { employeeId: RECORDS_TECHNICIAN, password: DEMO_PASSWORD } });
    expect(login.status()).toBe(200);
    const uploaded: UploadedRecord[] = [];
    for (let i = 0; i < count; i++) {
      const metadata = {
        date,
        type: 'CoF',
        divisionRailway: 'RTM/WR',
        section: 'E2E-RECORDS',
        curveNumber: String(i + 1),
        line: 'Up',
        cofValue: `0.${String(20 + i).padStart(2, '0')}`,
        location: 'Near End',
        clientSubmissionId: randomUUID(),
      };
      const res = await technician.post('/api/inspections/upload', {
        multipart: {
          metadata: JSON.stringify(metadata),
          file: { name: 'inspection_image.jpg', mimeType: 'image/jpeg', buffer: await uniqueJpeg() },
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      const body = (await res.json()) as UploadedRecord;
      uploaded.push({ recordId: body.recordId, imageHash: body.imageHash });
    }
    return uploaded;
  } finally {
    await technician.dispose();
  }
}

/**
 * The visit date that tags one test's records: a year of the test's own, long past (no demo
 * record, no other spec), moved on a day per retry or repeat, because those run against the
 * same server and must not find the records of the try before.
 */
export function ownDate(year: number, testInfo: TestInfo): string {
  const day = new Date(Date.UTC(year, 0, 1 + testInfo.retry * 40 + testInfo.repeatEachIndex));
  return day.toISOString().slice(0, 10);
}

/** The record ID prefix of a date's records: what the view's Record ID search is given. */
export const recordIdPrefix = (date: string) => `INS-${date.replaceAll('-', '')}`;

/** Makes a record's photo really missing on the server: its file is gone from the blob store. */
export async function deletePhotoFile(imageHash: string): Promise<void> {
  expect(imageHash).toMatch(/^[0-9a-f]{64}$/);
  await rm(path.join(BLOB_ROOT, imageHash.slice(0, 2), imageHash.slice(2, 4), imageHash));
}

/**
 * Records every GET /api/inspections the page makes, so a test can prove the view never asks
 * for more than a page (never the whole table).
 */
export function watchListRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === '/api/inspections') seen.push(url);
  });
  return seen;
}

export function expectOnlyPages(seen: readonly URL[]) {
  expect(seen.length).toBeGreaterThan(0);
  for (const url of seen) {
    const limit = url.searchParams.get('limit');
    expect(limit, `${url.search} must name a limit`).not.toBeNull();
    expect(Number(limit), url.search).toBeLessThanOrEqual(50);
  }
}

/** What the API lists for a record ID search, as the signed-in page's user. */
export async function listedRecordIds(page: Page, q: string): Promise<{ ids: string[]; total: number }> {
  const res = await page.request.get(`/api/inspections?limit=50&q=${encodeURIComponent(q)}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { logs: Array<{ recordId: string }>; total: number };
  return { ids: body.logs.map((l) => l.recordId), total: body.total };
}
