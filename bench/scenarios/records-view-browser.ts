/**
 * The admin's records view in Chromium at a phone's size: it must never load the table (list requests <= 50 records, answers
 * <= 500 KB). Assumes the view's markup: a list named "Inspection records", "Showing 1–50 of N records", a "Next" button.
 */
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type Page } from '@playwright/test';
import { median, round, summarizeLatencies } from '../lib/stats.js';
import type { Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';

const VIEW = '/admin?view=records-management';
const VIEWPORT = { width: 412, height: 915 };
const RUNS = 3;
const MAX_LIMIT = 50;
const MAX_RESPONSE_BYTES = 500 * 1024;
const TIMEOUT_MS = 30_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface ListCall {
  url: string;
  limit: number | null;
  status: number;
  bytes: number;
}

async function signIn(page: Page, ctx: ScenarioContext, employeeId: string) {
  await page.goto(`${ctx.baseUrl}/login`);
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password').fill(ctx.demo.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: TIMEOUT_MS });
}

const cards = (page: Page) =>
  page
    .getByRole('list', { name: /inspection records/i })
    .getByRole('article')
    .or(page.getByRole('article').filter({ hasText: /INS-\d{8}-/ }));

const showing = (page: Page, first: number) => page.getByText(new RegExp(`Showing\\s+${first}\\s*[–-]`)).first();

type RunFigures = Awaited<ReturnType<typeof oneRun>>;

async function oneRun(browser: Browser, ctx: ScenarioContext, employeeId: string) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const calls: ListCall[] = [];
  const thumbnails = { count: 0, bytes: 0 };
  const pending: Array<Promise<void>> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    // The list itself (not /api/inspections/<id>/...), and the photos of its cards.
    const isList = url.pathname === '/api/inspections' && response.request().method() === 'GET';
    if (!isList && !/^\/api\/inspections\/[^/]+\/(thumbnail|image)$/.test(url.pathname)) return;
    const read = response.body().then((body) => {
      if (!isList) {
        thumbnails.count += 1;
        thumbnails.bytes += body.length;
        return;
      }
      const limit = url.searchParams.get('limit');
      calls.push({ url: `${url.pathname}${url.search}`, limit: limit === null ? null : Number(limit), status: response.status(), bytes: body.length });
    });
    pending.push(read.catch(() => undefined));
  });
  try {
    await signIn(page, ctx, employeeId);
    const opened = performance.now();
    await page.goto(`${ctx.baseUrl}${VIEW}`);
    await cards(page).first().waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    const firstCardsMs = performance.now() - opened;
    // No photo on the first page, or the view shows none: reported as '-'.
    const firstImageMs = await page
      .locator('img')
      .filter({ visible: true })
      .first()
      .evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve, { once: true }))), null, { timeout: TIMEOUT_MS })
      .then(
        () => performance.now() - opened,
        () => null,
      );
    await showing(page, 1).waitFor({ timeout: TIMEOUT_MS }).catch(() => undefined);
    const clicked = performance.now();
    await page.getByRole('button', { name: /next/i }).first().click();
    await showing(page, MAX_LIMIT + 1).waitFor({ timeout: TIMEOUT_MS });
    await cards(page).first().waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    const nextPageMs = performance.now() - clicked;
    // Let the photos of the new page come in before counting bytes.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await Promise.all(pending);
    return { firstCardsMs, firstImageMs, nextPageMs, calls, thumbnails };
  } finally {
    await context.close();
  }
}

export const recordsViewBrowser: Scenario = {
  name: 'records-view-browser',
  description: `Chromium ${VIEWPORT.width}x${VIEWPORT.height}: ${VIEW} as the demo Admin, first cards then Next, ${RUNS} fresh visits`,
  noCeiling:
    "a browser's timing of the whole view (sign-in, the app's JS, rendering, the list's requests, thumbnails), one visit at a time: no bare route " +
    "does that work, and a bare static page in the same browser would time Chromium's start of a page, not a floor under this view; " +
    "the list request it waits for is held against its bare ceiling in inspections-page",
  dataset: 'records',
  async run(ctx) {
    let browser: Browser;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    } catch (error) {
      throw new Error(`could not start Chromium at ${CHROMIUM} (CHROMIUM_PATH): ${error instanceof Error ? error.message : String(error)}`);
    }
    const runs: RunFigures[] = [];
    const started = performance.now();
    try {
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, ctx, ctx.demo.byRole('Admin').employeeId));
    } finally {
      await browser.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const calls = runs.flatMap((r) => r.calls);
    const statusCodes: Record<string, number> = {};
    for (const call of calls) statusCodes[String(call.status)] = (statusCodes[String(call.status)] ?? 0) + 1;
    const tooMany = calls.filter((c) => c.limit !== null && !(c.limit <= MAX_LIMIT));
    const tooBig = calls.filter((c) => c.bytes > MAX_RESPONSE_BYTES);
    const each = (figure: (r: RunFigures) => string | number) => runs.map(figure).join(' / ');
    const result: ScenarioResult = {
      unit: 'visits/s',
      connections: null,
      durationSeconds: round(seconds),
      requests: calls.length,
      throughput: round(runs.length / seconds, 2),
      latencyMs: summarizeLatencies(runs.map((r) => r.firstCardsMs)),
      non2xx: calls.filter((c) => c.status < 200 || c.status > 299).length,
      errors: tooMany.length + tooBig.length,
      statusCodes,
      notes: [
        `time to first cards (p50/p99 columns) ${each((r) => round(r.firstCardsMs, 0))} ms; ` +
          `first photo shown ${each((r) => (r.firstImageMs === null ? '-' : round(r.firstImageMs, 0)))} ms; ` +
          `Next to the second page's cards ${each((r) => round(r.nextPageMs, 0))} ms (median ${round(median(runs.map((r) => r.nextPageMs)), 0)})`,
        `GET /api/inspections per visit: ${each((r) => r.calls.length)} responses, ${each((r) => round(r.calls.reduce((sum, c) => sum + c.bytes, 0) / 1024, 1))} KB in all; ` +
          `largest ${round(Math.max(0, ...calls.map((c) => c.bytes)) / 1024, 1)} KB; limits asked ${[...new Set(calls.map((c) => String(c.limit ?? 'default')))].join(', ')}`,
        `photos per visit (thumbnails or images): ${each((r) => `${r.thumbnails.count} (${round(r.thumbnails.bytes / 1024, 0)} KB)`)}`,
      ],
    };
    for (const c of tooMany.slice(0, 3)) result.notes.push(`FAIL: ${c.url} asks for more than ${MAX_LIMIT} records`);
    for (const c of tooBig.slice(0, 3)) result.notes.push(`FAIL: ${c.url} answered ${round(c.bytes / 1024, 0)} KB (> ${MAX_RESPONSE_BYTES / 1024} KB)`);
    return result;
  },
};
