/**
 * The Excel maintenance report (issue 11) as an officer makes it at a desk: the Excel Reports
 * view, its toast with the two counts, the dated XLSX download read back with exceljs, and a
 * Client held to their own division. The counts are checked against GET /api/schedule/summary
 * with the page's own session.
 *
 * Other specs add curves and visits on the same server while these run, and either can move
 * the counts: a comparison is strict when the schedule did not change around the generation
 * (as in a quiet run), and noted as skipped otherwise. The workbook's own checks always hold.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { type Download, expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { bi, sheetBi } from '../../server/test/bilingual.js';
import { ADMIN, CLIENT, expectPath, signIn } from './helpers.js';

const SHOTS = '/tmp/e2e-shots';
const REPORT_URL = '**/api/reports/curve-maintenance';
const FOUND = /^Found (\d+) curves needing service and (\d+) curves needing CoF measurement\.$/;
const SERVICE_STATUS = /^Service (overdue \d+ d|due in \d+ d|due today|never done)$/;
const COF_STATUS = /^CoF (overdue \d+ d|due in \d+ d|due today|never done|in time, \d+ d left)(; CoF high: follow up \(\d+\.\d{2}\))?$/;

interface ScheduleTotals {
  asOf: string;
  service: number;
  cof: number;
  divisions: string[];
  sections: string[];
}

/** The schedule's counts as the API gives them to this page's user (a Client: their division). */
async function scheduleTotals(page: Page): Promise<ScheduleTotals> {
  const response = await page.request.get('/api/schedule/summary');
  expect(response.status()).toBe(200);
  const body = (await response.json()) as {
    asOf: string;
    sections: { divisionRailway: string; section: string; service: { attention: number }; cof: { attention: number } }[];
  };
  return {
    asOf: body.asOf,
    service: body.sections.reduce((n, s) => n + s.service.attention, 0),
    cof: body.sections.reduce((n, s) => n + s.cof.attention, 0),
    // In the API's order, as the tables show them.
    divisions: [...new Set(body.sections.map((s) => s.divisionRailway))],
    sections: body.sections.map((s) => s.section),
  };
}

type Cell = ExcelJS.CellValue;

/** Each sheet of the download: its name, its header and its rows (values from column 1). */
async function readWorkbook(download: Download): Promise<Map<string, { header: Cell[]; rows: Cell[][] }>> {
  const workbook = new ExcelJS.Workbook();
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  // exceljs types its input as its own Buffer alias; Node's Buffer is that at run time.
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheets = new Map<string, { header: Cell[]; rows: Cell[][] }>();
  for (const sheet of workbook.worksheets) {
    const rows: Cell[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values = row.values as Cell[];
      rows.push(values.slice(1));
    });
    const [header = [], ...data] = rows;
    sheets.set(sheet.name, { header, rows: data });
  }
  return sheets;
}

function sheetOf(sheets: Awaited<ReturnType<typeof readWorkbook>>, name: string) {
  const sheet = sheets.get(name);
  if (!sheet) throw new Error(`the workbook has no sheet ${name}`);
  return sheet;
}

/** The Summary sheet's value in the row whose first cell is `label`, at the header `column` (both by their English: the sheet writes them in Hindi and English). */
function summaryValue(summary: { header: Cell[]; rows: Cell[][] }, label: string, column: string): Cell {
  const row = summary.rows.find((r) => r[0] === bi(label));
  if (!row) throw new Error(`the Summary sheet has no row ${label}`);
  const index = summary.header.indexOf(bi(column));
  expect(index, `Summary column ${column}`).toBeGreaterThan(0);
  return row[index] ?? null;
}

/**
 * Clicks Generate Excel Report and follows it through: "Generating..." while the server works
 * (the request is held until the button has said so), the server's answer, the toast and the
 * download. Returns the counts the toast gave and the downloaded file.
 */
async function generateReport(page: Page) {
  const button = page.getByRole('button', { name: 'Generate Excel Report' });
  await expect(button).toBeEnabled();
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(REPORT_URL, async (route) => {
    await held;
    await route.continue();
  });
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/reports/curve-maintenance') && r.request().method() === 'POST');
  const download = page.waitForEvent('download');
  await button.click();
  const busy = page.getByRole('button', { name: 'Generating...' });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  release();
  const response = await answer;
  await page.unroute(REPORT_URL);
  expect(response.status()).toBe(200);
  const made = (await response.json()) as { serviceCount: number; cofCount: number; reportId: string };

  const toast = page.getByRole('status').filter({ hasText: 'Report Generated' });
  await expect(toast).toBeVisible();
  const description = toast.locator('p').nth(1);
  await expect(description).toHaveText(FOUND);
  const text = (await description.textContent()) ?? '';
  const [, service, cof] = FOUND.exec(text) ?? [];
  const counts = { service: Number(service), cof: Number(cof) };
  expect(counts).toEqual({ service: made.serviceCount, cof: made.cofCount });
  // The counts stay on the card after the toast has gone, with the way to download again.
  const card = page.getByRole('region', { name: 'Curve Maintenance Report' });
  await expect(card.getByRole('status').locator('p')).toHaveText(text);
  await expect(card.getByRole('button', { name: 'Download again' })).toBeVisible();
  await expect(button).toBeEnabled();
  return { counts, file: await download };
}

/** The toast's counts are the API's, when nothing changed the schedule meanwhile. */
function expectCountsOfSummary(counts: { service: number; cof: number }, before: ScheduleTotals, after: ScheduleTotals) {
  if (before.service === after.service && before.cof === after.cof) {
    expect(counts).toEqual({ service: after.service, cof: after.cof });
  } else {
    test.info().annotations.push({
      type: 'counts not compared',
      description: `the schedule changed during the generation (service ${before.service} -> ${after.service}, CoF ${before.cof} -> ${after.cof})`,
    });
  }
}

function expectDueSheets(sheets: Awaited<ReturnType<typeof readWorkbook>>, counts: { service: number; cof: number }) {
  // The open follow-up actions of the scope have a sheet of their own.
  expect([...sheets.keys()]).toEqual(['Summary', 'Service due', 'CoF due', 'Actions'].map(sheetBi));
  expect(sheetOf(sheets, sheetBi('Actions')).header.slice(0, 5)).toEqual(['Action', 'Fault', 'State', 'Severity', 'Division'].map(bi));
  const service = sheetOf(sheets, sheetBi('Service due'));
  const cof = sheetOf(sheets, sheetBi('CoF due'));
  // Column titles in Hindi and English; the cells as stored.
  expect(service.header.slice(0, 4)).toEqual(['मंडल / Division', 'खंड / Section', 'कर्व / Curve', 'लाइन / Line']);
  expect(service.header.at(-1)).toBe(bi('Status'));
  expect(cof.header).toContain(bi('Last CoF value'));
  expect(service.rows).toHaveLength(counts.service);
  expect(cof.rows).toHaveLength(counts.cof);
  for (const row of service.rows) expect(String(row.at(-1))).toMatch(SERVICE_STATUS);
  for (const row of cof.rows) expect(String(row.at(-1))).toMatch(COF_STATUS);
  const summary = sheetOf(sheets, sheetBi('Summary'));
  expect(summaryValue(summary, 'Total', 'Service due (all)')).toBe(counts.service);
  expect(summaryValue(summary, 'Total', 'CoF due (all)')).toBe(counts.cof);
  return { service, cof, summary };
}

test('an admin generates the all-divisions maintenance report and reads it back', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await expectPath(page, '/admin');
  await page.getByRole('button', { name: /^Reports & Analytics/ }).click();
  await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 2 })).toBeVisible();

  // The reports landing: the schedule at a glance, a row per division and a total.
  const before = await scheduleTotals(page);
  const glance = page.getByRole('table', { name: 'Maintenance schedule by division' });
  await expect(glance.getByRole('rowheader')).toHaveText([...before.divisions, 'Total']);

  await page.getByRole('button', { name: /^Excel Reports/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/admin' && url.searchParams.get('view') === 'curve-maintenance');
  await expect(page.getByRole('heading', { name: 'Excel Reports', level: 2 })).toBeVisible();
  const division = page.getByLabel('Division', { exact: true });
  await expect(division).toBeEnabled();
  await expect(division).toHaveValue('all');
  await expect(division.locator('option')).toHaveText(['All divisions', 'FZR/NR', 'RTM/WR']);
  const section = page.getByLabel('Section', { exact: true });
  await expect(section).toHaveValue('all');
  await expect(section.locator('option').first()).toHaveText('All sections');
  const bySection = page.getByRole('table', { name: 'Maintenance schedule by section' });
  await expect(bySection.getByRole('rowheader').last()).toHaveText('Total');

  const { counts, file } = await generateReport(page);
  const after = await scheduleTotals(page);
  expectCountsOfSummary(counts, before, after);
  expect(counts.service).toBeGreaterThan(0);
  expect(counts.cof).toBeGreaterThan(0);
  expect(file.suggestedFilename()).toBe(`Curve_Maintenance_${after.asOf}.xlsx`);

  const sheets = await readWorkbook(file);
  const { summary, service } = expectDueSheets(sheets, counts);
  expect(summaryValue(summary, 'Scope', 'Section')).toBe('सभी मंडल, सभी खंड / All divisions, all sections');
  expect(summaryValue(summary, 'As of', 'Section')).toBe(after.asOf);
  // Every division of the register is in it.
  expect([...new Set(service.rows.map((r) => String(r[0])))].sort()).toEqual([...after.divisions].sort());

  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/excel-reports-admin.png`, fullPage: true });

  // A failure says so, and the button comes back.
  await page.route(REPORT_URL, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }));
  await page.getByRole('button', { name: 'Generate Excel Report' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'Failed to generate curve maintenance report' });
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('Error');
  await expect(page.getByRole('button', { name: 'Generate Excel Report' })).toBeEnabled();
  await page.unroute(REPORT_URL);
});

test("a Client's maintenance report is their own division's", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, CLIENT.employeeId);
  await expectPath(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 2 })).toBeVisible();
  const before = await scheduleTotals(page);
  expect(before.divisions).toEqual([CLIENT.division]);
  // The glance shows their division alone.
  await expect(page.getByRole('table', { name: 'Maintenance schedule by division' }).getByRole('rowheader')).toHaveText([CLIENT.division]);

  await page.getByRole('button', { name: 'Open Excel Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Excel Reports', level: 2 })).toBeVisible();
  const division = page.getByLabel('Division', { exact: true });
  await expect(division).toBeDisabled();
  await expect(division).toHaveValue(CLIENT.division);
  await expect(division.locator('option:checked')).toHaveText(CLIENT.division);
  // The section choices are the division's.
  const section = page.getByLabel('Section', { exact: true });
  await expect(section.locator('option').first()).toHaveText('All sections');
  await expect.poll(async () => section.locator('option').allTextContents()).toEqual(expect.arrayContaining(before.sections.filter((s) => !s.startsWith('E2E'))));

  const { counts, file } = await generateReport(page);
  const after = await scheduleTotals(page);
  expectCountsOfSummary(counts, before, after);
  expect(file.suggestedFilename()).toBe(`Curve_Maintenance_RTM-WR_${after.asOf}.xlsx`);

  const sheets = await readWorkbook(file);
  const { service, cof, summary } = expectDueSheets(sheets, counts);
  expect(service.rows.length + cof.rows.length).toBeGreaterThan(0);
  for (const row of [...service.rows, ...cof.rows]) expect(row[0]).toBe(CLIENT.division);
  const sectionRows = summary.rows.slice(0, summary.rows.findIndex((r) => r[0] === bi('Total')));
  expect(sectionRows.length).toBeGreaterThan(0);
  for (const row of sectionRows) expect(row[0]).toBe(CLIENT.division);
  expect(summaryValue(summary, 'Scope', 'Section')).toBe(`${CLIENT.division}, सभी खंड / ${CLIENT.division}, all sections`);
  // The demo has open actions in the Client's division and in others: only theirs are listed.
  const actions = sheetOf(sheets, sheetBi('Actions')).rows;
  expect(actions.length).toBeGreaterThan(0);
  for (const row of actions) expect([row[2], row[4]]).toEqual(['Open', CLIENT.division]);
});
