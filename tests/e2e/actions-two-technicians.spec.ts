/**
 * A follow-up action from the field to the office (issue 25): one technician reports a stolen
 * part, the action reaches a second technician's phone and stays there offline after one sync,
 * the second technician's fix visit, made offline, takes it off their list at once and closes it
 * on the server once sent, and the Admin's Actions view shows it closed with both photos.
 *
 * Technician B is TEC2002, whose records in the other specs are dated long ago (records-helpers),
 * so B's recent sections are the demo's. The curve is in B's home division FZR/NR: NDLS/NR's
 * figures belong to the machine dashboard spec and RTM/WR is the Client's, whose open actions
 * another spec lists. A curve with no open action is chosen, so the fix closes this test's
 * action only, and a curve serviced in time, so no spec's "most overdue curve" moves under it.
 */
import { type BrowserContext, devices, expect, type Locator, type Page, test } from '@playwright/test';
import { daysBetween } from '../../common/rules/dates.js';
import { type Action, type ActionListResponse, ACTIONS_PAGE_MAX } from '../../common/schemas/actions.js';
import type { ScheduleResponse } from '../../common/schemas/schedule.js';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from './a11y.js';
import { actionCards, expectPhotoShown } from './action-helpers.js';
import { keptAnswer, outbox, readyForTheField, recordIdOnSuccess, recordServiceFindings } from './field-helpers.js';
import { ADMIN, CLIENT, TECHNICIAN, expectPath, signIn } from './helpers.js';

// Three people signing in, two phones made ready for a dead zone, photos and a drain on a busy 2-core machine.
test.describe.configure({ timeout: 300_000 });

const TECHNICIAN_B = 'TEC2002';
const DIVISION = 'FZR/NR';
/** The due list shows this many faults, the most urgent first; a new one (due in 7 d) comes last. */
const FAULTS_SHOWN = 6;
/** What /purpose asks for B (no division of their own), and so what the phone keeps. */
const OPEN_ACTIONS_URL = `/api/actions?state=open&limit=${ACTIONS_PAGE_MAX}`;
/** The due list's first choice of section: the technician's recent ones. */
const RECENT_SECTIONS = '';
/**
 * A visit is dated by the phone's clock and the due list counts days in the railway's time zone
 * (docs/functional-requirements.md, 'Dates and time'): the phones here are where the railway is, as in the
 * field, not in the test machine's zone.
 */
const RAILWAY_TIME_ZONE = 'Asia/Kolkata';
const PHONE = { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, timezoneId: RAILWAY_TIME_ZONE };
const DESKTOP = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 }, timezoneId: RAILWAY_TIME_ZONE };

test.use({ timezoneId: RAILWAY_TIME_ZONE });

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

const sameCurve = (a: { section: string; curveNumber: string; line: string }, b: { section: string; curveNumber: string; line: string }) =>
  a.section === b.section && a.curveNumber === b.curveNumber && a.line === b.line;

/**
 * Of B's recent sections in the division, the one with the fewest open actions, so a new one is
 * among the faults the due list shows; in it, a curve serviced in time with no open action.
 */
async function curveForTheTest(b: Page) {
  const schedule = await getJson<ScheduleResponse>(b, '/api/schedule?limit=1000');
  expect(schedule.timeZone).toBe(RAILWAY_TIME_ZONE);
  const { actions } = await getJson<ActionListResponse>(b, OPEN_ACTIONS_URL);
  const openIn = (section: string) => actions.filter((a) => a.section === section).length;
  const sections = schedule.recentSections
    .filter((section) => schedule.curves.some((c) => c.section === section && c.divisionRailway === DIVISION))
    .sort((x, y) => openIn(x) - openIn(y));
  const section = sections[0];
  if (section === undefined) throw new Error(`${TECHNICIAN_B} has no recent section in ${DIVISION}: ${schedule.recentSections.join(', ')}`);
  expect(openIn(section), `open actions in ${section}`).toBeLessThan(FAULTS_SHOWN);
  const curve = schedule.curves.find((c) => c.section === section && c.service.state === 'in-time' && !actions.some((a) => sameCurve(a, c)));
  if (!curve) throw new Error(`${section} has no curve serviced in time without an open action`);
  return curve;
}

/** The faults the due list counts: those shown and the "and N more faults" after them. */
async function faultsListed(dueList: Locator): Promise<number> {
  const faults = dueList.getByRole('list', { name: 'Faults to fix' });
  if ((await faults.count()) === 0) return 0;
  const more = /and (\d+) more faults/.exec(await faults.innerText());
  return (await faults.getByRole('link').count()) + Number(more?.[1] ?? 0);
}

test('a stolen part reported by one technician is fixed offline by another and shows closed, with both photos, to the Admin', async ({
  page: a,
  browser,
  baseURL,
}) => {
  const contexts: BrowserContext[] = [];
  const open = async (options: typeof PHONE | typeof DESKTOP) => {
    // A context of its own is a person of their own: their sign-in, their phone's storage and network.
    const context = await browser.newContext({ ...options, baseURL });
    contexts.push(context);
    return { context, page: await context.newPage() };
  };
  try {
    // B's phone, ready for the field: signed in, the app shell cached, the reference data kept.
    const { context: bContext, page: b } = await open(PHONE);
    await readyForTheField(b, TECHNICIAN_B);
    const curve = await curveForTheTest(b);
    const { section, curveNumber } = curve;

    // A reports the part stolen, online, on a phone 390 px wide, with the fake camera's photo.
    await a.setViewportSize(PHONE.viewport);
    await signIn(a, TECHNICIAN.employeeId);
    await expectPath(a, '/purpose');
    await a.getByText('Service Inspection').click();
    await a.getByLabel('Division/Railway').selectOption(DIVISION);
    await a.getByLabel('Section', { exact: true }).selectOption(section);
    await a.getByLabel('Curve Number').selectOption(curveNumber);
    await expect(a.getByLabel('Line')).not.toHaveValue('');
    const part = await recordServiceFindings(a, { update: 'Some part is stolen', machineWorking: true });
    if (!part) throw new Error('no part was reported');
    const openingRecord = await recordIdOnSuccess(a);

    const opened = (await getJson<ActionListResponse>(a, `/api/actions?state=open&section=${encodeURIComponent(section)}`)).actions.filter(
      (action) => action.openedByRecordId === openingRecord,
    );
    expect(opened.map((action) => action.kind)).toEqual(['part-stolen']);
    const [action] = opened as [Action];
    expect(action).toMatchObject({ divisionRailway: DIVISION, section, curveNumber, reported: `${part.category} – ${part.item}` });
    const dueInDays = daysBetween(action.openedOn, action.dueDate);

    // B syncs once, after the report: the open actions are kept on the phone with the schedule.
    await b.reload();
    await expect(b.getByRole('region', { name: 'Due in your sections' })).toBeVisible();
    await expect
      .poll(async () => ((await keptAnswer(b, OPEN_ACTIONS_URL)) as ActionListResponse | undefined)?.actions.some((kept) => kept.id === action.id), {
        timeout: 30_000,
      })
      .toBe(true);

    // Offline: the action is on B's due list for the section, one of their recent sections.
    await bContext.setOffline(true);
    await b.reload();
    const dueList = b.getByRole('region', { name: 'Due in your sections' });
    const sectionSelect = dueList.getByLabel('Section', { exact: true });
    await expect(sectionSelect.locator('option').first()).toContainText(section);
    await sectionSelect.selectOption(section);
    const fault = dueList
      .getByRole('list', { name: 'Faults to fix' })
      .getByRole('link')
      .filter({ hasText: `Curve ${curveNumber} · ${action.line} · ${section}` });
    await expect(fault).toHaveCount(1);
    await expect(fault).toContainText(`Part stolen: ${action.reported}`);
    await expect(fault).toContainText(`reported today, due in ${dueInDays} d`);
    await b.screenshot({ path: '/tmp/actions-two-technicians-390-due-list-offline.png', fullPage: true });
    // The due list with a fault first: readable by everyone, and no sideways scroll on a 360 px phone.
    await expectNoSeriousA11yViolations(b, 'the due list with a fault to fix, offline');
    await b.setViewportSize({ width: 360, height: 800 });
    await expectNoSidewaysScroll(b, 'the due list with a fault to fix at 360 px');
    await b.setViewportSize(PHONE.viewport);
    await sectionSelect.selectOption(RECENT_SECTIONS);
    const faultsBefore = await faultsListed(dueList);

    // A tap starts a Service visit with the curve filled in.
    await sectionSelect.selectOption(section);
    await fault.click();
    await expectPath(b, '/data-entry');
    await expect(b.getByRole('heading', { name: 'Service Inspection' })).toBeVisible();
    await expect(b.getByLabel('Division/Railway')).toHaveValue(DIVISION);
    await expect(b.getByLabel('Section', { exact: true })).toHaveValue(section);
    await expect(b.getByLabel('Curve Number')).toHaveValue(curveNumber);
    await expect(b.getByLabel('Line')).toHaveValue(action.line);

    // The fix, still offline: it waits in the outbox, and the phone's own closing rule takes the fault off at once.
    await recordServiceFindings(b, { update: 'Machine is working fine', machineWorking: true });
    await expect(b.getByText('Queued')).toBeVisible();
    expect(await outbox(b)).toHaveLength(1);
    // In the app, not a reload: the open actions it read before are still in memory, so an empty list is the rule at work.
    await b.getByRole('button', { name: 'New Inspection' }).click();
    await expectPath(b, '/purpose');
    await expect(sectionSelect).toHaveValue(section);
    await expect(fault).toHaveCount(0);
    await sectionSelect.selectOption(RECENT_SECTIONS);
    await expect.poll(() => faultsListed(dueList)).toBe(faultsBefore - 1);

    // Back online, the outbox drains and the server closes the action with B's record.
    await bContext.setOffline(false);
    await expect.poll(async () => (await outbox(b)).length, { timeout: 60_000 }).toBe(0);
    const closed = (await getJson<ActionListResponse>(b, `/api/actions?state=closed&section=${encodeURIComponent(section)}`)).actions.find(
      (candidate) => candidate.id === action.id,
    );
    expect(closed).toMatchObject({ state: 'closed', closedByEmployeeId: null });
    const closingRecord = closed?.closedByRecordId ?? '';
    expect(closingRecord).toMatch(/^INS-\d{8}-[0-9A-Z]{6}$/);
    const { logs } = await getJson<{ logs: Array<{ recordId: string; technicianId: string; serviceUpdate: string | null; isMachineWorking: boolean | null }> }>(
      b,
      '/api/inspections?limit=5',
    );
    expect(logs.find((log) => log.recordId === closingRecord)).toMatchObject({ technicianId: TECHNICIAN_B, serviceUpdate: 'working-fine', isMachineWorking: true });
    await b.reload();
    await sectionSelect.selectOption(section);
    await expect(fault).toHaveCount(0);

    // The Admin, at a desk: the action among the closed ones, with both records and their photos.
    const { page: admin } = await open(DESKTOP);
    await signIn(admin, ADMIN.employeeId);
    await expectPath(admin, '/purpose');
    await admin.goto('/admin?view=reports');
    await admin.getByRole('button', { name: /^Follow-up Actions/ }).click();
    await expect(admin.getByRole('heading', { name: 'Follow-up Actions' })).toBeVisible();
    await admin.getByLabel('State').selectOption('closed');
    await admin.getByLabel('Division/Railway').selectOption(DIVISION);
    await admin.getByLabel('Section', { exact: true }).selectOption(section);
    const card = actionCards(admin).filter({ has: admin.getByText(`Action ${action.id}`, { exact: true }) });
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Closed', { exact: true })).toBeVisible();
    await expect(card).toContainText(action.reported);
    await card.getByRole('button', { name: /^Show details/ }).click();
    const details = card.getByRole('region', { name: /^Details of / });
    for (const recordId of [openingRecord, closingRecord]) {
      await expectPhotoShown(details.getByRole('img', { name: `Photo of ${recordId}` }));
      await expect(details.getByRole('link', { name: `Open record ${recordId}` })).toBeVisible();
    }
    const history = details.getByRole('list', { name: 'History' }).getByRole('listitem');
    await expect(history.first()).toContainText('Opened');
    await expect(history.last()).toContainText('Closed');
    // From the top: a full-page shot taken scrolled down draws the sticky header over the middle.
    await admin.evaluate(() => window.scrollTo(0, 0));
    await admin.screenshot({ path: '/tmp/actions-two-technicians-1280-admin-closed.png', fullPage: true });

    // A Client of another division: not in their view, whatever they ask for.
    const { page: client } = await open(DESKTOP);
    await signIn(client, CLIENT.employeeId);
    await expectPath(client, '/admin');
    await client.goto(`/admin?view=actions&state=all&division=${encodeURIComponent(DIVISION)}&section=${encodeURIComponent(section)}`);
    await expect(client.getByText('No follow-up actions match the selected filters.')).toBeVisible();
    const theirs = await getJson<ActionListResponse>(client, `/api/actions?state=all&division=${encodeURIComponent(DIVISION)}&limit=${ACTIONS_PAGE_MAX}`);
    expect(theirs.actions.some((other) => other.id === action.id)).toBe(false);
    for (const other of theirs.actions) expect(other.divisionRailway).toBe(CLIENT.division);
  } finally {
    for (const context of contexts) await context.close();
  }
});
