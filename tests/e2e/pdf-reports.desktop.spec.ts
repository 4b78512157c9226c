/**
 * PDF reports at a desk (issue 12): the PDF Reports view's required fields, then an
 * inspection report with its photos and the SSE CoF Measurement table, each followed from
 * Generate through "Generating...", the progress bar and the toast to the dated PDF the
 * browser downloads, read back with poppler. Only the demo data is read.
 */
import { mkdir } from 'node:fs/promises';
import { expect, type Request, test } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';
import { DEMO_WINDOW_FROM, demoLogs, expectDatedPdfName, generateReport, loadedOptions, openGenerator, readPdf, SHOTS } from './pdf-report-helpers.js';

const DIVISION = 'FZR/NR';

test('an admin is told the required fields, then makes and downloads an inspection PDF report', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await expectPath(page, '/admin');
  await page.getByRole('button', { name: /^Reports & Analytics/ }).click();
  await openGenerator(page, 'PDF Reports', 'inspection-reports');

  const asked: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/reports/generate')) asked.push(request);
  });
  const division = page.getByLabel('Division', { exact: true });
  const type = page.getByLabel('Service Type', { exact: true });
  await expect(division).toHaveValue('');
  await expect(division.locator('option:checked')).toHaveText('Select division');
  await expect(type.locator('option')).toHaveText(['Select service type', 'Service', 'CoF']);

  // Neither chosen, then the division alone: the spec's message, and nothing is sent.
  const generate = page.getByRole('button', { name: 'Generate Report', exact: true });
  const missing = page.getByRole('alert').filter({ hasText: 'Missing Required Fields' });
  await generate.click();
  await expect(missing).toBeVisible();
  await expect(missing.locator('p')).toHaveText(['Missing Required Fields', 'Please select both Division and Service Type to generate a report.']);
  await missing.getByRole('button', { name: 'Close notification' }).click();
  await expect(missing).toBeHidden();
  await division.selectOption(DIVISION);
  await generate.click();
  await expect(missing).toBeVisible();
  await expect(missing.locator('p').nth(1)).toHaveText('Please select both Division and Service Type to generate a report.');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  expect(asked).toHaveLength(0);

  await type.selectOption('Service');
  await page.getByLabel('From date', { exact: true }).fill(DEMO_WINDOW_FROM);
  const { job, count, file, body } = await generateReport(page, {
    button: 'Generate Report',
    path: '/api/reports/generate',
    card: 'Inspection Report (PDF)',
    toastTitle: 'Report Generated',
    toastText: /^with (\d+) records$/,
  });
  expect(body).toMatchObject({ type: 'Service', division: DIVISION, fromDate: DEMO_WINDOW_FROM, format: 'images' });
  expect(asked).toHaveLength(1);
  expect(count).toBeGreaterThan(0);
  expectDatedPdfName(file, /^Service_Report_FZR-NR_\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = await readPdf(file, 'inspection-report.pdf');
  if (pdf.text !== null) {
    expect(pdf.text).toContain(job.reportId);
    expect(pdf.text).toContain(DIVISION);
  }
  // Two records to a page after the first page of figures.
  if (pdf.pages !== null) expect(pdf.pages).toBeGreaterThanOrEqual(1 + Math.ceil(count / 2));

  // The report waits under the user's recent reports.
  await expect(page.getByRole('list', { name: 'Your recent reports' })).toContainText(`${DIVISION}, Service, all technicians, from ${DEMO_WINDOW_FROM}`);
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/pdf-reports-admin.png`, fullPage: true });
});

test("an admin makes and downloads an SSE's CoF measurement report", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=reports');
  await openGenerator(page, 'SSE CoF Measurement', 'sse-reports');

  const division = page.getByLabel('Division', { exact: true });
  await expect(division).toHaveValue('all');
  await division.selectOption(DIVISION);

  // An SSE of the register (placeholders left out, alphabetical) with demo CoF readings.
  const options = (await loadedOptions(page, 'SSE')).map((o) => o.value).filter((v) => v !== '');
  expect(options).not.toContain('SSE');
  expect(options).toEqual([...options].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  const logs = await demoLogs(page, DIVISION, 'CoF');
  const measured = new Set(logs.map((l) => (l.railwayEngineer ?? '').trim().toLowerCase()));
  const sse = options.find((o) => measured.has(o.trim().toLowerCase()));
  expect(sse, `an SSE of ${DIVISION} among ${options.join(', ')} has CoF readings (${[...measured].join(', ')})`).toBeDefined();
  if (sse === undefined) return;
  const readings = logs.filter((l) => (l.railwayEngineer ?? '').trim().toLowerCase() === sse.trim().toLowerCase()).length;
  await page.getByLabel('SSE', { exact: true }).selectOption(sse);
  await page.getByLabel('From date', { exact: true }).fill(DEMO_WINDOW_FROM);

  const { job, count, file, body } = await generateReport(page, {
    button: 'Generate SSE Report',
    path: '/api/reports/sse-table',
    card: 'SSE CoF Measurement Report (PDF)',
    toastTitle: 'SSE Report Generated',
    toastText: /^Report contains (\d+) CoF measurements$/,
    noun: ['CoF measurement', 'CoF measurements'],
  });
  expect(body).toMatchObject({ division: DIVISION, sseEngineer: sse, fromDate: DEMO_WINDOW_FROM });
  // Other specs may add readings meanwhile; none are taken away.
  expect(count).toBeGreaterThanOrEqual(readings);
  expectDatedPdfName(file, new RegExp(`^SSE_CoF_Report_FZR-NR_${sse.replace(/[^\w-]+/g, '-')}_\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
  const pdf = await readPdf(file, 'sse-report.pdf');
  if (pdf.text !== null) {
    expect(pdf.text).toContain(job.reportId);
    expect(pdf.text).toContain(sse);
  }
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/sse-reports-admin.png`, fullPage: true });
});
