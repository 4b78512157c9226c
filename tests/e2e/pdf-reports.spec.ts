/**
 * PDF reports on a phone 390 px wide (issue 12): an admin's Service Report for one
 * technician, and a Client's inspection report held to their own division, each followed
 * from Generate to the dated PDF the browser downloads, read back with poppler. The views
 * must not scroll sideways. Only the demo data is read.
 */
import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, CLIENT, expectPath, signIn } from './helpers.js';
import { DEMO_WINDOW_FROM, demoLogs, expectDatedPdfName, generateReport, loadedOptions, openGenerator, readPdf, SHOTS } from './pdf-report-helpers.js';

const OTHER_DIVISIONS = ['FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR'];

test.use({ viewport: { width: 390, height: 844 } });

async function expectNoSidewaysScroll(page: Page) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { message: 'the page fits 390 px' }).toBeLessThanOrEqual(0);
}

test("an admin makes and downloads a technician's Service Report on a phone", async ({ page }) => {
  test.setTimeout(120_000);
  const division = 'FZR/NR';
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=reports');
  await openGenerator(page, 'Service Reports', 'service-reports');

  await page.getByLabel('Division', { exact: true }).selectOption(division);
  // A technician of the list who made Service visits in the division.
  const visits = await demoLogs(page, division, 'Service');
  const technicians = (await loadedOptions(page, 'Technician')).filter((o) => o.value !== '');
  const technician = technicians.find((t) => visits.some((v) => v.technicianId === t.value));
  expect(technician, `a technician among ${technicians.map((t) => t.value).join(', ')} has Service visits in ${division}`).toBeDefined();
  if (technician === undefined) return;
  expect(technician.label).toContain(`(${technician.value})`);
  await page.getByLabel('Technician', { exact: true }).selectOption(technician.value);
  await page.getByLabel('From date', { exact: true }).fill(DEMO_WINDOW_FROM);
  await expectNoSidewaysScroll(page);

  const { job, count, file, body } = await generateReport(page, {
    button: 'Generate Service Report',
    path: '/api/reports/service-table',
    card: 'Service Report (PDF)',
    toastTitle: 'Service Report Generated',
    toastText: /^Report contains (\d+) service records$/,
    noun: ['service record', 'service records'],
  });
  expect(body).toMatchObject({ division, technician: technician.value, fromDate: DEMO_WINDOW_FROM });
  expect(count).toBeGreaterThanOrEqual(visits.filter((v) => v.technicianId === technician.value).length);
  expectDatedPdfName(file, new RegExp(`^Service_Table_FZR-NR_${technician.value}_\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
  const pdf = await readPdf(file, 'service-report.pdf');
  if (pdf.text !== null) {
    expect(pdf.text).toContain(job.reportId);
    expect(pdf.text).toContain(technician.value);
  }
  await expectNoSidewaysScroll(page);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/service-reports-phone.png`, fullPage: true });
});

test("a Client's PDF report is locked to their division and holds nothing else", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, CLIENT.employeeId);
  await expectPath(page, '/admin');
  await openGenerator(page, 'PDF Reports', 'inspection-reports');

  const division = page.getByLabel('Division', { exact: true });
  await expect(division).toBeDisabled();
  await expect(division).toHaveValue(CLIENT.division);
  await expect(division.locator('option')).toHaveText([CLIENT.division]);
  await page.getByLabel('Service Type', { exact: true }).selectOption('CoF');
  await page.getByLabel('From date', { exact: true }).fill(DEMO_WINDOW_FROM);
  await expectNoSidewaysScroll(page);

  const { job, count, file, body } = await generateReport(page, {
    button: 'Generate Report',
    path: '/api/reports/generate',
    card: 'Inspection Report (PDF)',
    toastTitle: 'Report Generated',
    toastText: /^with (\d+) records$/,
  });
  expect(body).toMatchObject({ type: 'CoF', division: CLIENT.division, format: 'images' });
  expect(count).toBeGreaterThan(0);
  expectDatedPdfName(file, /^CoF_Report_RTM-WR_\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = await readPdf(file, 'client-report.pdf');
  if (pdf.text !== null) {
    expect(pdf.text).toContain(job.reportId);
    expect(pdf.text).toContain(CLIENT.division);
    for (const other of OTHER_DIVISIONS) expect(pdf.text, `the Client's report names no ${other}`).not.toContain(other);
  }
  await expectNoSidewaysScroll(page);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/pdf-reports-client-phone.png`, fullPage: true });
});
