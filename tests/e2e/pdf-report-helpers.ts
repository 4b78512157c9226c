/**
 * Shared steps of the PDF report specs (issue 12): opening a generator from the reports
 * landing, following one report from Generate to the browser's download, and reading the PDF
 * back with poppler's pdfinfo and pdftotext.
 *
 * The specs read the demo data only: every report is narrowed to the demo data's window
 * (from DEMO_WINDOW_FROM on), so the records other specs upload with dates long past (and
 * delete again, photos included) are never part of a report while it is made.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { type Download, expect, type Page, test } from '@playwright/test';

const run = promisify(execFile);

export const SHOTS = '/tmp/e2e-shots';

/** The demo visits are of the last 60 days (server/db/seed/inspections.ts); a margin on top. */
export const DEMO_WINDOW_FROM = (() => {
  const day = new Date(Date.now() - 90 * 86_400_000);
  return day.toISOString().slice(0, 10);
})();

export interface ReportJobAnswer {
  reportId: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  recordCount: number;
  pdfUrl: string;
}

/** From the reports landing (already shown), opens one of its four generator cards. */
export async function openGenerator(page: Page, title: 'PDF Reports' | 'SSE CoF Measurement' | 'Service Reports', view: string) {
  await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 2 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Report generators' }).getByRole('button', { name: new RegExp(`^${title}`) }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/admin' && url.searchParams.get('view') === view);
  await expect(page.getByRole('heading', { name: title, level: 2, exact: true })).toBeVisible();
}

/** Options of a select once its list has loaded (more than the "All ..." choice). */
export async function loadedOptions(page: Page, label: string): Promise<{ value: string; label: string }[]> {
  const select = page.getByLabel(label, { exact: true });
  await expect.poll(async () => select.locator('option').count(), { message: `the ${label} choices load`, timeout: 15_000 }).toBeGreaterThan(1);
  return select.locator('option').evaluateAll((options) => options.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent ?? '' })));
}

/** The demo records of a division and type (the page's own session), for picking filters with data. */
export async function demoLogs(page: Page, division: string, type: 'Service' | 'CoF') {
  const params = new URLSearchParams({ division, type, from: DEMO_WINDOW_FROM, limit: '500' });
  const response = await page.request.get(`/api/inspections?${params.toString()}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { logs: { technicianId: string; railwayEngineer: string | null }[] };
  return body.logs;
}

export interface GenerateOptions {
  /** The Generate button's own label. */
  button: string;
  /** The POST path, e.g. /api/reports/generate. */
  path: string;
  /** The card (a region named by its title). */
  card: string;
  toastTitle: string;
  /** The toast's description with the record count as its one group. */
  toastText: RegExp;
  /** What the card says the report counts, singular and plural (default record, records). */
  noun?: readonly [string, string];
}

/**
 * Clicks Generate and follows the report through: "Generating..." and the progress bar while
 * the request is out (the POST is held until both have shown, so a report the server makes
 * within its quick wait still shows them), the job's answer (a 202 must be followed by polls
 * of GET /api/reports/{id}), the toast with the count, and the download the view starts.
 */
export async function generateReport(page: Page, options: GenerateOptions) {
  const button = page.getByRole('button', { name: options.button, exact: true });
  await expect(button).toBeEnabled();
  const card = page.getByRole('region', { name: options.card });

  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pattern = `**${options.path}`;
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === options.path && r.request().method() === 'POST');
  const download = page.waitForEvent('download', { timeout: 90_000 });
  await button.click();

  const busy = page.getByRole('button', { name: 'Generating...' });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  const bar = card.getByRole('progressbar');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  await expect(card).toContainText('Making the report: 0%');

  release();
  const response = await answered;
  await page.unroute(pattern);
  expect(response.request().headers()['prefer']).toBe('respond-async');
  expect([200, 202]).toContain(response.status());
  const job = (await response.json()) as ReportJobAnswer;
  expect(job.pdfUrl).toBe(`/api/reports/download/${job.reportId}`);
  expect(job.recordCount).toBeGreaterThan(0);
  expect(job.status).toMatch(response.status() === 200 ? /^done$/ : /^(queued|running)$/);
  test.info().annotations.push({ type: 'report job', description: `${options.path} answered ${response.status()} (${job.status}, ${job.progress}%)` });
  if (response.status() === 202) {
    // A job still being made: the view asks after it, with the bar still shown meanwhile.
    const polled = await page.waitForResponse((r) => new URL(r.url()).pathname === `/api/reports/${job.reportId}` && r.request().method() === 'GET', { timeout: 15_000 });
    expect(polled.status()).toBe(200);
  }

  // The toast (5 s on screen) is checked first, then the download it comes with.
  const toast = page.getByRole('status').filter({ hasText: options.toastTitle });
  await expect(toast).toBeVisible({ timeout: 90_000 });
  await expect(toast.locator('p').first()).toHaveText(options.toastTitle);
  const description = toast.locator('p').nth(1);
  await expect(description).toHaveText(options.toastText);
  const count = Number(options.toastText.exec((await description.textContent()) ?? '')?.[1]);
  expect(count).toBe(job.recordCount);

  const file = await download;
  // The outcome stays on the card: the count and the way to download it again.
  await expect(bar).toBeHidden();
  const [one, many] = options.noun ?? ['record', 'records'];
  await expect(card.getByRole('status')).toContainText(`Your report is ready: ${count} ${count === 1 ? one : many}`);
  await expect(card.getByRole('link', { name: 'Download again' })).toHaveAttribute('href', job.pdfUrl);
  await expect(button).toBeEnabled();
  return { job, count, file, body: response.request().postDataJSON() as Record<string, unknown> };
}

/** "Name_yyyy-MM-dd.pdf" with a date no further than a day and a half from now (any time zone). */
export function expectDatedPdfName(download: Download, stem: RegExp) {
  const name = download.suggestedFilename();
  const match = /_(\d{4}-\d{2}-\d{2})\.pdf$/.exec(name);
  expect(match, `${name} is dated yyyy-MM-dd`).not.toBeNull();
  expect(name).toMatch(stem);
  const day = Date.parse(`${match?.[1] ?? ''}T12:00:00Z`);
  expect(Math.abs(day - Date.now())).toBeLessThan(36 * 3_600_000);
}

async function poppler(tool: 'pdfinfo' | 'pdftotext', args: string[]): Promise<string | null> {
  try {
    const { stdout } = await run(tool, args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      test.info().annotations.push({ type: 'skipped check', description: `${tool} (poppler-utils) is not installed` });
      return null;
    }
    throw error;
  }
}

/**
 * Saves the download, checks it is a PDF of at least one page (pdfinfo) and returns its text
 * (pdftotext), or null where poppler is not installed.
 */
export async function readPdf(download: Download, name: string): Promise<{ pages: number | null; text: string | null }> {
  const path = test.info().outputPath(name);
  await download.saveAs(path);
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const info = await poppler('pdfinfo', [path]);
  let pages: number | null = null;
  if (info !== null) {
    pages = Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
    expect(pages).toBeGreaterThanOrEqual(1);
  }
  const text = await poppler('pdftotext', ['-layout', path, '-']);
  return { pages, text };
}
