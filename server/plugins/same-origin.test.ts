/**
 * Writes that another site makes a signed-in browser send are refused with 403, whatever cookie
 * they carry, and write nothing; the app's own pages, the configured origins and clients that
 * are not browsers (no Origin, no Referer) are not affected.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTasks, inspectionLogs, reports } from '../db/schema.js';
import { buildTestApp, type TestApp } from '../test/build-test-app.js';
import { createUser, signIn, TEST_PASSWORD } from '../test/factories.js';
import { insertInspectionRows, inspectionRow } from '../test/inspections.js';

let t: TestApp;
let admin: string;
// app.inject sends Host: localhost:80 unless told otherwise.
const OWN = 'http://localhost:80';

beforeAll(async () => {
  t = await buildTestApp({ allowedOrigins: ['https://field.example.org'] });
  await createUser(t.database.db, { role: 'Admin', employeeId: 'ADM1' });
  admin = await signIn(t.app, 'ADM1');
});
afterAll(() => t.close());

async function newRecord(): Promise<string> {
  const [row] = await insertInspectionRows(t.database.db, [inspectionRow()]);
  if (!row) throw new Error('insert failed');
  return row.recordId;
}

async function stillThere(recordId: string): Promise<boolean> {
  return (await t.database.db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(eq(inspectionLogs.recordId, recordId))).length === 1;
}

const deleteRecords = (recordIds: string[], headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/images/delete', headers: { cookie: admin, ...headers }, payload: { imageIds: recordIds } });

describe('a write from another site', () => {
  it('is refused by its Origin, with the signed-in cookie, and deletes nothing', async () => {
    const recordId = await newRecord();
    const response = await deleteRecords([recordId], { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST', message: 'This request came from another site (https://evil.example) and was refused' });
    expect(await stillThere(recordId)).toBe(true);
  });

  it('is refused by its Referer when it has no Origin, and for a look-alike host or port', async () => {
    const recordId = await newRecord();
    const attempts: Array<Record<string, string>> = [
      { referer: 'https://evil.example/page?x=1' },
      { origin: 'http://localhost.evil.example' },
      { origin: 'http://localhost:8080' },
      { origin: 'null' },
    ];
    for (const headers of attempts) {
      const response = await deleteRecords([recordId], headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json().code).toBe('CROSS_SITE_REQUEST');
    }
    expect(await stillThere(recordId)).toBe(true);
  });

  it('cannot sign anyone in (login CSRF) nor out', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://evil.example' }, payload: { employeeId: 'ADM1', password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.cookies).toEqual([]);
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: admin, origin: 'https://evil.example' } });
    expect(logout.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: admin } })).statusCode).toBe(200);
  });

  it('is refused before its body is read: a malformed body still gets 403, not 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/images/delete',
      headers: { cookie: admin, origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{"imageIds": [',
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('writes that are not cross-site', () => {
  it("go through from the app's own pages, by Origin or Referer", async () => {
    const first = await newRecord();
    expect((await deleteRecords([first], { origin: OWN })).statusCode).toBe(200);
    const second = await newRecord();
    expect((await deleteRecords([second], { referer: `${OWN}/admin?view=records-management` })).statusCode).toBe(200);
    expect(await stillThere(first)).toBe(false);
    expect(await stillThere(second)).toBe(false);
  });

  it('go through from an origin listed in ALLOWED_ORIGINS', async () => {
    const recordId = await newRecord();
    expect((await deleteRecords([recordId], { origin: 'https://field.example.org' })).statusCode).toBe(200);
  });

  it('go through from clients that are not browsers (no Origin, no Referer)', async () => {
    const recordId = await newRecord();
    expect((await deleteRecords([recordId], {})).statusCode).toBe(200);
  });

  it('leave reads alone: a GET from another site is answered (the browser keeps the answer from that site)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: admin, origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('a request another site makes a browser send (Sec-Fetch-Site: cross-site)', () => {
  it('starts nothing: a top-level navigation to the photo check or the machine report is refused', async () => {
    const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    const check = await t.app.inject({ method: 'GET', url: '/api/admin/files/status', headers: { cookie: admin, ...navigation } });
    expect(check.statusCode).toBe(403);
    expect(check.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST', message: 'This request came from another site and was refused' });
    const report = await t.app.inject({ method: 'GET', url: '/api/machine-report?den=&aen=', headers: { cookie: admin, ...navigation } });
    expect(report.statusCode).toBe(403);
    const [taskRows, reportRows] = await Promise.all([
      t.database.db.select({ id: fileTasks.id }).from(fileTasks),
      t.database.db.select({ id: reports.id }).from(reports),
    ]);
    expect(taskRows).toEqual([]);
    expect(reportRows).toEqual([]);
    // A cross-site image or script load of a photo is refused too.
    const recordId = await newRecord();
    const image = await t.app.inject({ method: 'GET', url: `/api/inspections/${recordId}/image`, headers: { cookie: admin, 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } });
    expect(image.statusCode).toBe(403);
  });

  it("leaves the app's own requests, typed addresses and clients without the header alone", async () => {
    for (const site of ['same-origin', 'same-site', 'none', undefined]) {
      const headers: Record<string, string> = { cookie: admin, ...(site ? { 'sec-fetch-site': site } : {}) };
      const response = await t.app.inject({ method: 'GET', url: '/api/admin/files/tasks', headers });
      expect(response.statusCode, String(site)).toBe(200);
    }
    // The web app's own files may be linked to from anywhere.
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(page.statusCode).not.toBe(403);
  });
});
