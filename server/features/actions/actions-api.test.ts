/**
 * Follow-up actions through the real app: uploads open, join and close them exactly once; an
 * Admin closes and reopens with a note, audited; deleting the records behind an action leaves
 * its history consistent; Clients read their own division only; bad input is refused with
 * nothing written.
 */
import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Action, actionCountsResponseSchema, actionListResponseSchema, actionSchema } from '../../../common/schemas/actions.js';
import { auditListResponseSchema } from '../../../common/schemas/audit.js';
import { consolidatedCurveDetails, followUpActionEvents, followUpActions, inspectionLogs } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { makeDistinctPhotos, serviceVisitMetadata, uploadForm } from '../../test/photos.js';
import { readWorkbook, valuesOf } from '../../test/xlsx.js';
import { reportJobResponseSchema } from '../../../common/schemas/reports.js';

/** 12:00 in Kolkata on 2026-11-23. */
const NOW = new Date('2026-11-23T06:30:00Z');

let t: TestApp;
let cookies: Record<'admin' | 'technician' | 'client', string>;
let photos: Buffer[];
let photoIndex = 0;

const RTM_CURVE = { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'Up' };
const FZR_CURVE = { divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '3', line: 'Single' };

const service = (overrides: Record<string, unknown>) =>
  serviceVisitMetadata({ ...RTM_CURVE, serviceUpdate: 'working-fine', partCategory: null, partItemName: null, isMachineWorking: 'yes', ...overrides });

const cof = (value: string, overrides: Record<string, unknown> = {}) => ({
  date: '2026-11-20',
  type: 'CoF',
  ...RTM_CURVE,
  cofValue: value,
  location: 'Far End',
  km: '412/6',
  pole1: '12',
  pole2: '14',
  clientSubmissionId: randomUUID(),
  ...overrides,
});

async function upload(metadata: Record<string, unknown>): Promise<string> {
  const photo = photos[photoIndex++ % photos.length] as Buffer;
  const response = await t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: cookies.technician }, payload: uploadForm(metadata, photo) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return (response.json() as { recordId: string }).recordId;
}

async function list(query = 'state=all', cookie = cookies.admin) {
  const response = await t.app.inject({ method: 'GET', url: `/api/actions?${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return actionListResponseSchema.parse(response.json());
}

const byKind = async (kind: string, query = 'state=all') => (await list(`${query}&kind=${kind}`)).actions;

const post = (url: string, payload: unknown, cookie = cookies.admin) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => NOW });
  cookies = await createAndSignIn(t, { admin: ADMIN, technician: TECHNICIAN, client: CLIENT_RTM });
  photos = await makeDistinctPhotos(40, 640, 360);
});

afterAll(async () => {
  await t?.close();
});

// Each test starts from no records: a visit of an earlier test would be "a later visit" here.
beforeEach(async () => {
  await t.database.db.delete(followUpActions);
  await t.database.db.delete(inspectionLogs);
});

describe('a visit that reports a fault', () => {
  it('opens one action per fault, with its curve, record, severity and due date; a replay adds nothing', async () => {
    const metadata = service({ serviceUpdate: 'part-stolen', partCategory: 'Pump Assembly', partItemName: 'Gear pump', isMachineWorking: 'no', date: '2026-11-20' });
    const recordId = await upload(metadata);
    const { actions, total } = await list();
    expect(total).toBe(2);
    const stolen = actions.find((a) => a.kind === 'part-stolen') as Action;
    expect(stolen).toMatchObject({
      state: 'open',
      severity: 'high',
      ...RTM_CURVE,
      reported: 'Pump Assembly – Gear pump',
      openedOn: '2026-11-20',
      dueDate: '2026-11-27',
      openedByRecordId: recordId,
      closedByRecordId: null,
      reportCount: 1,
      ageDays: 3,
      ageing: '3-7',
      overdue: false,
    });
    expect(stolen.history.map((e) => [e.event, e.recordId, e.actorEmployeeId])).toEqual([['opened', recordId, TECHNICIAN.employeeId]]);
    const notWorking = actions.find((a) => a.kind === 'machine-not-working') as Action;
    expect(notWorking).toMatchObject({ severity: 'high', dueDate: '2026-11-22', overdue: true });

    // The phone sends the same submission again (its answer was lost): nothing more.
    const again = await t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: cookies.technician }, payload: uploadForm(metadata, photos[0]) });
    expect(again.json()).toMatchObject({ duplicate: true, recordId });
    const after = await list();
    expect(after.total).toBe(2);
    expect(after.actions.every((a) => a.reportCount === 1 && a.history.length === 1)).toBe(true);
  });

  it('joins a repeat report to the open action of the same curve, line and kind', async () => {
    const first = await upload(service({ serviceUpdate: 'part-broken', partCategory: 'Nozzle', partItemName: 'Tip', date: '2026-11-18' }));
    const second = await upload(service({ serviceUpdate: 'part-broken', partCategory: 'Hose', partItemName: 'Main hose', date: '2026-11-21' }));
    const [action, ...more] = await byKind('part-broken');
    expect(more).toEqual([]);
    expect(action).toMatchObject({ reportCount: 2, openedByRecordId: first, openedOn: '2026-11-18', reported: 'Nozzle – Tip' });
    expect(action?.history.map((e) => [e.event, e.recordId, e.note])).toEqual([
      ['opened', first, null],
      ['reported-again', second, 'Hose – Main hose'],
    ]);
  });

  it("names the register's SSE of the curve and line, the register's line code read as the record's line", async () => {
    await t.database.db.insert(consolidatedCurveDetails).values([
      { no: 901, ...RTM_CURVE, line: 'UP', sse: 'SSE/Ratlam North' },
      { no: 902, ...RTM_CURVE, line: 'DN', sse: 'SSE/Ratlam South' },
      { no: 903, ...FZR_CURVE, line: 'SL', sse: 'SSE/Ferozepur' },
    ]);
    try {
      await upload(cof('0.31'));
      // The register has no curve 13 of RTM-NAD: no SSE.
      await upload(cof('0.32', { curveNumber: '13' }));
      // A fault a later visit has fixed already is filed closed, with its SSE all the same.
      await upload(service({ ...FZR_CURVE, date: '2026-11-21' }));
      await upload(service({ ...FZR_CURVE, serviceUpdate: 'part-broken', partCategory: 'Nozzle', partItemName: 'Tip', date: '2026-11-19' }));
      const named = (actions: Action[]) => actions.map((a) => [a.curveNumber, a.state, a.sse]).sort();
      expect(named(await byKind('cof-high'))).toEqual([
        ['12', 'open', 'SSE/Ratlam North'],
        ['13', 'open', null],
      ]);
      expect(named(await byKind('part-broken'))).toEqual([['3', 'closed', 'SSE/Ferozepur']]);
    } finally {
      await t.database.db.delete(consolidatedCurveDetails).where(inArray(consolidatedCurveDetails.no, [901, 902, 903]));
    }
  });

  it('opens a CoF action above the threshold only; equal to it is within', async () => {
    await upload(cof('0.25'));
    expect(await byKind('cof-high')).toEqual([]);
    const high = await upload(cof('0.26', { date: '2026-11-21' }));
    expect(await byKind('cof-high')).toMatchObject([{ state: 'open', reported: 'CoF 0.26', openedByRecordId: high, dueDate: '2026-11-24', severity: 'medium' }]);
  });
});

describe('a later visit that passes', () => {
  it('closes the part and machine actions and links the record that closed them', async () => {
    await upload(service({ serviceUpdate: 'part-broken', partCategory: 'Nozzle', partItemName: 'Tip', isMachineWorking: 'no', date: '2026-11-18' }));
    // Working fine but the machine is still not working: proves nothing.
    await upload(service({ isMachineWorking: 'no', date: '2026-11-19' }));
    expect((await list('state=open')).total).toBe(2);
    const fix = await upload(service({ date: '2026-11-20' }));
    const { actions } = await list();
    expect(actions.map((a) => [a.kind, a.state, a.closedByRecordId, a.closedOn, a.ageDays])).toEqual(
      expect.arrayContaining([
        ['part-broken', 'closed', fix, '2026-11-20', 2],
        ['machine-not-working', 'closed', fix, '2026-11-20', 2],
      ]),
    );
  });

  it('closes a CoF action with a reading equal to the threshold', async () => {
    await upload(cof('0.31', { date: '2026-11-18' }));
    const fix = await upload(cof('0.25', { date: '2026-11-20' }));
    expect(await byKind('cof-high')).toMatchObject([{ state: 'closed', closedByRecordId: fix }]);
  });

  it('does not close an action of the other line, or of a fault reported after it', async () => {
    await upload(cof('0.31', { date: '2026-11-18' }));
    await upload(cof('0.20', { date: '2026-11-20', line: 'Down' }));
    expect(await byKind('cof-high')).toMatchObject([{ state: 'open' }]);
    // A fix dated before the fault (uploaded late from an outbox) proves nothing about it.
    await upload(cof('0.20', { date: '2026-11-17' }));
    expect(await byKind('cof-high')).toMatchObject([{ state: 'open' }]);
  });

  it('files a late report of a fault that a later visit already fixed as closed by that visit', async () => {
    const fix = await upload(cof('0.20', { date: '2026-11-21' }));
    const late = await upload(cof('0.33', { date: '2026-11-19' }));
    expect(await byKind('cof-high')).toMatchObject([{ state: 'closed', openedByRecordId: late, closedByRecordId: fix, closedOn: '2026-11-21' }]);
    expect((await list('state=open')).total).toBe(0);
  });
});

describe('an Admin', () => {
  it('closes an action with a required note and reopens it, each audited with who and why', async () => {
    await upload(service({ serviceUpdate: 'part-stolen', partCategory: 'Pump Assembly', partItemName: 'Gear pump' }));
    const [action] = await byKind('part-stolen');
    const id = action?.id as number;

    const noNote = await post(`/api/actions/${id}/close`, { note: '  ' });
    expect(noNote.statusCode).toBe(400);
    expect(errorOf(noNote).fields).toHaveProperty('note');
    expect(await byKind('part-stolen', 'state=open')).toHaveLength(1);
    // An id past the database's integers is the caller's mistake, named, never a server error.
    const tooLarge = await post('/api/actions/2147483648/close', { note: 'x' });
    expect(tooLarge.statusCode).toBe(400);
    expect(errorOf(tooLarge).fields).toHaveProperty('id');

    expect((await post(`/api/actions/${id}/close`, { note: 'x' }, cookies.technician)).statusCode).toBe(403);
    expect((await post(`/api/actions/${id}/close`, { note: 'x' }, cookies.client)).statusCode).toBe(403);

    const closed = await post(`/api/actions/${id}/close`, { note: 'Machine removed by order' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(actionSchema.parse(closed.json())).toMatchObject({ state: 'closed', closedByRecordId: null, closedByEmployeeId: ADMIN.employeeId, closeNote: 'Machine removed by order', closedOn: '2026-11-23' });
    expect(errorOf(await post(`/api/actions/${id}/close`, { note: 'again' })).code).toBe('CONFLICT');

    const reopened = actionSchema.parse((await post(`/api/actions/${id}/reopen`, { note: 'The order was withdrawn' })).json());
    expect(reopened).toMatchObject({ state: 'open', closeNote: null, dueDate: '2026-11-30' });
    expect(reopened.history.map((e) => [e.event, e.actorEmployeeId, e.note])).toEqual([
      ['opened', TECHNICIAN.employeeId, null],
      ['closed', ADMIN.employeeId, 'Machine removed by order'],
      ['reopened', ADMIN.employeeId, 'The order was withdrawn'],
    ]);

    const audit = auditListResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/audit?limit=5', headers: { cookie: cookies.admin } })).json());
    const entries = audit.entries.filter((e) => e.entity === 'follow-up-action' && e.entityId === String(id));
    expect(entries.map((e) => [e.action, e.actorEmployeeId, e.after?.note])).toEqual([
      ['action.reopen', ADMIN.employeeId, 'The order was withdrawn'],
      ['action.close', ADMIN.employeeId, 'Machine removed by order'],
    ]);
    expect((await post('/api/actions/999999/close', { note: 'x' })).statusCode).toBe(404);
  });
});

describe('deleting the records behind an action', () => {
  const remove = (recordId: string) => t.app.inject({ method: 'DELETE', url: `/api/inspections/${recordId}`, headers: { cookie: cookies.admin } });

  it('moves the opening to the next report, and withdraws an action left with none', async () => {
    const first = await upload(cof('0.31', { date: '2026-11-18' }));
    const second = await upload(cof('0.35', { date: '2026-11-19' }));
    expect((await remove(first)).statusCode).toBe(200);
    const [action] = await byKind('cof-high');
    expect(action).toMatchObject({ state: 'open', openedByRecordId: second, openedOn: '2026-11-19', reportCount: 1, dueDate: '2026-11-22' });
    expect(action?.history.at(-1)).toMatchObject({ event: 'record-deleted', recordId: first, actorEmployeeId: ADMIN.employeeId });

    expect((await remove(second)).statusCode).toBe(200);
    expect(await byKind('cof-high')).toEqual([]);
    expect(await t.database.db.select().from(followUpActionEvents)).toEqual([]);
    const audit = auditListResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/audit?limit=5', headers: { cookie: cookies.admin } })).json());
    expect(audit.entries.map((e) => e.action)).toContain('action.withdraw');
  });

  it('reopens an action whose closing visit is deleted', async () => {
    const fault = await upload(cof('0.31', { date: '2026-11-18' }));
    const fix = await upload(cof('0.20', { date: '2026-11-20' }));
    expect((await remove(fix)).statusCode).toBe(200);
    expect(await byKind('cof-high')).toMatchObject([{ state: 'open', openedByRecordId: fault, closedByRecordId: null, closedOn: null }]);
    const [action] = await byKind('cof-high');
    expect(action?.history.map((e) => e.event)).toEqual(['opened', 'closed', 'reopened', 'record-deleted']);
  });
});

describe('who reads what', () => {
  it('holds a Client to their division in the list and the counts, whatever they ask for', async () => {
    await upload(cof('0.31', { date: '2026-11-10' }));
    await upload(cof('0.40', { ...FZR_CURVE, date: '2026-11-22' }));
    const mine = await list('state=all&division=FZR/NR', cookies.client);
    expect(mine.actions.map((a) => a.divisionRailway)).toEqual(['RTM/WR']);
    const counts = actionCountsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/actions/counts?division=FZR/NR', headers: { cookie: cookies.client } })).json(),
    );
    expect(counts.divisions).toEqual([{ divisionRailway: 'RTM/WR', open: 1, overdue: 1 }]);
    const all = actionCountsResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/actions/counts', headers: { cookie: cookies.admin } })).json());
    expect(all.divisions).toEqual([
      { divisionRailway: 'FZR/NR', open: 1, overdue: 0 },
      { divisionRailway: 'RTM/WR', open: 1, overdue: 1 },
    ]);
    expect((await list('state=open&overdue=true')).actions.map((a) => a.divisionRailway)).toEqual(['RTM/WR']);
    expect((await t.app.inject({ method: 'GET', url: '/api/actions/counts', headers: { cookie: cookies.technician } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/actions' })).statusCode).toBe(401);
  });

  it('refuses a bad query naming the field', async () => {
    for (const [query, field] of [
      ['kind=broken', 'kind'],
      ['state=maybe', 'state'],
      ['limit=0', 'limit'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/api/actions?${query}`, headers: { cookie: cookies.admin } });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).message).toContain(field);
    }
  });
});

describe('the actions as an Excel report', () => {
  async function report(body: Record<string, unknown>, cookie: string) {
    const response = await post('/api/reports/follow-up-actions', body, cookie);
    expect(response.statusCode, response.body).toBeLessThan(300);
    let job = reportJobResponseSchema.parse(response.json());
    // A report is a job: follow it as the view does until it is made.
    while (job.status !== 'done') {
      expect(job.status).not.toBe('failed');
      job = reportJobResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/reports/${job.reportId}`, headers: { cookie } })).json());
    }
    const file = await t.app.inject({ method: 'GET', url: job.pdfUrl, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    return { fileName: String(file.headers['content-disposition']), sheets: await readWorkbook(file.rawPayload) };
  }

  it('lists the actions in view with real dates, text kept as text, and a Client only their division', async () => {
    const opener = await upload(cof('0.31', { date: '2026-11-10' }));
    await upload(cof('0.40', { ...FZR_CURVE, date: '2026-11-22', curveNumber: '007' }));
    const { fileName, sheets } = await report({ state: 'open', division: 'FZR/NR' }, cookies.client);
    expect(fileName).toContain('Follow_Up_Actions_RTM-WR_2026-11-23.xlsx');
    expect(sheets.map((s) => s.name)).toEqual(['कार्रवाइयाँ | Actions', 'विवरण | About']);
    const [header, row, ...rest] = sheets[0]?.rows ?? [];
    expect(rest).toEqual([]);
    // Column titles in Hindi and English; the values as stored (a filter of the column finds them).
    expect(valuesOf(header).slice(0, 3)).toEqual(['कार्रवाई / Action', 'खराबी / Fault', 'स्थिति / State']);
    const cells = valuesOf(row);
    expect(cells.slice(1, 10)).toEqual(['CoF high', 'Open', 'Medium', 'RTM/WR', 'RTM-NAD', '12', 'Up', null, 'CoF 0.31']);
    expect(cells[11]).toEqual(new Date('2026-11-10T00:00:00Z'));
    expect(cells[13]).toBe('Yes');
    expect(cells[15]).toBe(opener);
    expect((row ?? []).some((c) => c.fill !== null), 'an overdue row is highlighted').toBe(true);
    const about = new Map((sheets[1]?.rows ?? []).map((r) => [r[0]?.value, r[1]?.value]));
    expect(about.get('मंडल / Division')).toBe('RTM/WR');
    expect(about.get('स्थिति / State')).toBe('खुली / Open');
    expect(about.get('खराबी / Fault')).toBe('सभी खराबियाँ / All faults');

    const all = await report({ state: 'open' }, cookies.admin);
    const curves = (all.sheets[0]?.rows ?? []).slice(1).map((r) => valuesOf(r)[6]);
    expect(curves.sort()).toEqual(['007', '12']);
    const none = await post('/api/reports/follow-up-actions', { state: 'closed' }, cookies.admin);
    expect(none.statusCode).toBe(404);
    expect((await post('/api/reports/follow-up-actions', { state: 'open' }, cookies.technician)).statusCode).toBe(403);
  });
});
