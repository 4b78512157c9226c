/**
 * The technician's due list (issue 11) with no network: after one signed-in start the phone
 * keeps the schedule (GET /api/schedule) in IndexedDB, and /purpose's "Due in your sections",
 * the curve it opens in data entry, the pickers' due states and the note under Line all come
 * from that copy. Which curves are overdue is asked of the API while online: the demo data is
 * made relative to today.
 */
import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { lineFromCode } from '../../common/rules/line-codes.js';
import { readReferenceStore } from './field-helpers.js';
import { TECHNICIAN, expectPath, signIn } from './helpers.js';

const SHOTS = '/tmp/e2e-shots';
const SCHEDULE_URL = '/api/schedule?limit=1000';
const STATUS = /(Service|CoF) (overdue \d+ d|due in \d+ d|due today|never done)/;

interface ScheduleCurve {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  hkmCode: number | null;
  service: { state: string; daysOverdue: number; lastDate: string | null; lastTechnician: string | null };
}

/** Signed in, the app shell cached by the service worker and the schedule and curves on the phone. */
async function readyForTheField(page: Page) {
  await signIn(page, TECHNICIAN.employeeId);
  await expectPath(page, '/purpose');
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
  // The reference warmer has finished its copy (it notes when) and the answers are stored.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('hkmi_reference_warmed_at') !== null), { timeout: 30_000 })
    .toBe(true);
  await expect
    .poll(() => readReferenceStore(page, 'urls').then((urls) => urls ?? []), { timeout: 10_000 })
    .toEqual(expect.arrayContaining([SCHEDULE_URL, expect.stringMatching(/^\/api\/consolidated-curves\?/)]));
}

test('a technician sees the overdue curves of a section offline and opens one in data entry', async ({ page, context }) => {
  test.setTimeout(90_000);
  await readyForTheField(page);

  // Asked while online: the most overdue Service visits, with what the phone should show.
  const response = await page.request.get('/api/schedule?status=overdue&kind=Service&limit=5');
  expect(response.status()).toBe(200);
  const { curves, recentSections } = (await response.json()) as { curves: ScheduleCurve[]; recentSections: string[] };
  const overdue = curves[0];
  if (!overdue) throw new Error('the demo data has no overdue Service visit');
  expect(overdue.service.state).toBe('overdue');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Service Inspection')).toBeVisible();

  const dueList = page.getByRole('region', { name: 'Due in your sections' });
  await expect(dueList).toBeVisible();
  const sectionSelect = dueList.getByLabel('Section', { exact: true });
  // The default is the technician's recent sections (their records of the last 30 days).
  await expect(sectionSelect.locator('option').first()).toHaveText(recentSections.length > 0 ? /^Your recent sections \(.+\)$/ : 'Your recent sections');
  await sectionSelect.selectOption(overdue.section);

  const list = dueList.getByRole('list', { name: 'Curves due' });
  const first = list.getByRole('link').first();
  await expect(first).toContainText(` · ${overdue.section}`);
  // The most urgent first: the section has an overdue curve, so the first item is overdue.
  await expect(first).toContainText(/(Service|CoF) overdue \d+ d/);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/purpose-due-list-offline.png`, fullPage: true });

  const itemText = (await first.textContent()) ?? '';
  const [badge = '', kind] = STATUS.exec(itemText) ?? [];
  const href = new URL((await first.getAttribute('href')) ?? '', page.url());
  const chosen = {
    type: href.searchParams.get('type'),
    division: href.searchParams.get('division') ?? '',
    section: href.searchParams.get('section') ?? '',
    curve: href.searchParams.get('curve') ?? '',
    line: href.searchParams.get('line') ?? '',
  };
  expect(chosen.type).toBe(kind);
  expect(chosen.section).toBe(overdue.section);
  expect(itemText).toContain(`Curve ${chosen.curve} · ${chosen.line} · ${chosen.section}`);

  await first.click();
  await expectPath(page, '/data-entry');
  await expect(page.getByLabel('Division/Railway')).toHaveValue(chosen.division);
  await expect(page.getByLabel('Section', { exact: true })).toHaveValue(chosen.section);
  await expect(page.getByLabel('Curve Number')).toHaveValue(chosen.curve);
  await expect(page.getByLabel('Line')).toHaveValue(chosen.line);
  // The picker carries each curve's state for this kind of visit, the chosen one's included.
  await expect(page.getByLabel('Curve Number').locator('option:checked')).toHaveText(new RegExp(`^${escapeRegExp(chosen.curve)} · .*(overdue|due in|due today|never done)`));
  const note = page.locator('#curve-due-status');
  await expect(note).toContainText(badge);
  await expect(note).toContainText(new RegExp(`Last ${kind === 'Service' ? 'service' : 'CoF measurement'}: \\d{4}-\\d{2}-\\d{2} by \\S`));
  await page.screenshot({ path: `${SHOTS}/data-entry-due-note-offline.png`, fullPage: true });

  // The API's most overdue Service curve, opened for a Service visit: the same days overdue.
  const line = lineFromCode(overdue.line) ?? overdue.line;
  const params = new URLSearchParams({ type: 'Service', division: overdue.divisionRailway, section: overdue.section, curve: overdue.curveNumber, line });
  await page.goto(`/data-entry?${params.toString()}`);
  await expect(page.getByRole('heading', { name: 'Service Inspection' })).toBeVisible();
  const expected = `Service overdue ${overdue.service.daysOverdue} d`;
  await expect(page.getByLabel('Curve Number')).toHaveValue(overdue.curveNumber);
  await expect(page.getByLabel('Curve Number').locator('option:checked')).toContainText(expected);
  if (overdue.hkmCode !== null) {
    await expect(page.getByLabel('HKM Code').locator('option:checked')).toHaveText(`${overdue.hkmCode} · Curve ${overdue.curveNumber} · ${line} · ${expected}`);
  }
  await expect(page.locator('#curve-due-status')).toContainText(expected);
  await expect(page.locator('#curve-due-status')).toContainText(`Last service: ${overdue.service.lastDate} by ${overdue.service.lastTechnician}`);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
