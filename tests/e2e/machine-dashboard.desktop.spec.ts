/**
 * The machine rollout (issue 13) at a desk: the owner's progress values of a division and the
 * reports landing's cards that show them, the machine dashboard's DEN and AEN filters, and the
 * machine report's download read back with the server tests' XLSX reader.
 *
 * Other specs run beside these on the same demo server. Nothing else writes the rollout records
 * (curve_records: demo data only), so the dashboard's figures hold still; the owner's figures
 * are changed here for NDLS/NR alone, which no other spec looks at, and put back as they were
 * (at the end of the test, and again after all if the test stopped half-way).
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import type { AuditListResponse } from '../../common/schemas/audit.js';
import { bi } from '../../server/test/bilingual.js';
import { readWorkbook, valuesOf } from '../../server/test/xlsx.js';
import { ADMIN, expectPath, signIn } from './helpers.js';
import {
  apiSession,
  expectedProgress,
  expectNoSidewaysScroll,
  expectSettled,
  FIGURES,
  type Figures,
  figuresOf,
  filtersOf,
  progressOf,
  putSummary,
  shot,
  shownBreakdown,
  shownProgress,
  shownTotals,
  statsOf,
  summaryOf,
} from './machine-helpers.js';

/** The division whose figures this spec changes: no other spec asserts on it. */
const DIVISION = 'NDLS/NR';
const SUMMARY_URL = '**/api/machine-dashboard-summary';
const FIELD_LABELS = {
  scope: 'Scope',
  foundationCompleted: 'Foundation Completed',
  machinesInstalled: 'Machines Installed',
  machinesCommissioned: 'Machines Commissioned',
} as const;
const APP_TIME_ZONE = process.env.APP_TIMEZONE ?? 'Asia/Kolkata';

/** NDLS/NR's figures before this spec changed them; cleared once they are back. */
let toRestore: Figures | null = null;

test.afterAll(async ({ playwright }, testInfo) => {
  if (toRestore === null) return;
  const owner = await apiSession(playwright, testInfo, ADMIN.employeeId);
  try {
    await putSummary(owner, DIVISION, toRestore);
    toRestore = null;
  } finally {
    await owner.dispose();
  }
});

async function signInAsOwner(page: Page) {
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
}

const fieldOf = (page: Page, figure: keyof typeof FIELD_LABELS) => page.getByLabel(FIELD_LABELS[figure], { exact: true });

async function expectFormShows(page: Page, figures: Figures) {
  for (const f of FIGURES) await expect(fieldOf(page, f)).toHaveValue(String(figures[f]));
}

async function fillForm(page: Page, figures: Figures) {
  for (const f of FIGURES) await fieldOf(page, f).fill(String(figures[f]));
}

/** The newest audit entries (the owner may read the log). */
async function auditEntries(page: Page): Promise<AuditListResponse['entries']> {
  const response = await page.request.get('/api/audit?limit=200');
  expect(response.status()).toBe(200);
  return ((await response.json()) as AuditListResponse).entries;
}

const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

test("the owner updates a division's progress values and the reports landing shows them", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await signInAsOwner(page);
  const original = figuresOf(await summaryOf(page.request, DIVISION));
  const counted = (await progressOf(page.request, DIVISION)).fromCurveRecords;
  expect(counted, 'NDLS/NR has rollout records').not.toBeNull();
  // Possible new figures, each unlike the old one and unlike the rollout sheet's count.
  const changed: Figures = {
    scope: original.scope + 7,
    foundationCompleted: original.foundationCompleted + 5,
    machinesInstalled: original.machinesInstalled + 3,
    machinesCommissioned: original.machinesCommissioned + 2,
  };
  const auditBefore = Math.max(0, ...(await auditEntries(page)).map((e) => e.id));
  let puts = 0;
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/api/machine-dashboard-summary')) puts += 1;
  });

  try {
    // Admin Panel -> Data Management -> the owner's Machine Dashboard tile.
    await page.getByRole('button', { name: 'Admin Panel' }).click();
    await expectPath(page, '/admin');
    await page.getByRole('button', { name: /^Data Management/ }).click();
    await expect(page.getByRole('heading', { name: 'Data Management', level: 2 })).toBeVisible();
    await page.getByRole('button', { name: /^Machine Dashboard/ }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/admin' && url.searchParams.get('view') === 'machine-dashboard-management');
    await expect(page.getByRole('heading', { name: 'Machine Dashboard', level: 2 })).toBeVisible();

    const division = page.getByLabel('Division', { exact: true });
    await expect(division).toHaveValue('RTM/WR');
    await expect(division.locator('option')).toHaveText(['RTM/WR', 'FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR']);
    await expectFormShows(page, figuresOf(await summaryOf(page.request, 'RTM/WR')));
    await division.selectOption(DIVISION);
    await expect(page.getByRole('form', { name: `Progress values of ${DIVISION}` })).toBeVisible();
    await expectFormShows(page, original);
    // Each field says what the rollout sheet counts.
    for (const f of FIGURES) await expect(fieldOf(page, f)).toHaveAccessibleDescription(`Rollout sheet: ${counted?.[f]}`);
    const allDivisions = page.getByRole('region', { name: 'All divisions' });
    const ndlsRow = allDivisions.getByRole('row').filter({ has: page.getByRole('rowheader', { name: DIVISION, exact: true }) });
    await expect(ndlsRow.getByRole('cell')).toHaveText([...FIGURES.map((f) => String(original[f])), /.+/]);
    await shot(page, testInfo, 'management-desktop');

    // An impossible set (more machines installed than foundations) is named under its field, and nothing is sent.
    const update = page.getByRole('button', { name: 'Update Progress Values' });
    await fieldOf(page, 'machinesInstalled').fill(String(original.foundationCompleted + 1));
    await update.click();
    const installedProblem = `Machines installed (${original.foundationCompleted + 1}) cannot be more than foundation completed (${original.foundationCompleted})`;
    await expect(fieldOf(page, 'machinesInstalled')).toHaveAttribute('aria-invalid', 'true');
    await expect(fieldOf(page, 'machinesInstalled')).toHaveAccessibleDescription(installedProblem);
    await expect(page.getByRole('alert').filter({ hasText: installedProblem })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Machine Dashboard Updated' })).toHaveCount(0);
    expect(puts).toBe(0);
    expect(figuresOf(await summaryOf(page.request, DIVISION))).toEqual(original);
    await shot(page, testInfo, 'management-error-desktop');

    // The server refuses an impossible set too (the page's checks bypassed): its message goes under the field it names.
    await fillForm(page, original);
    await page.route(SUMMARY_URL, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      return route.continue({ postData: JSON.stringify({ division: DIVISION, ...original, foundationCompleted: original.scope + 1 }) });
    });
    await update.click();
    const foundationProblem = `Foundation completed (${original.scope + 1}) cannot be more than scope (${original.scope})`;
    await expect(fieldOf(page, 'foundationCompleted')).toHaveAccessibleDescription(foundationProblem);
    const refused = page.getByRole('alert').filter({ hasText: 'Failed to update machine dashboard' });
    await expect(refused).toBeVisible();
    await expect(refused).toContainText('Error');
    await page.unroute(SUMMARY_URL);
    expect(figuresOf(await summaryOf(page.request, DIVISION))).toEqual(original);

    // A possible set is saved: "Updating..." while the server works, then the toast.
    toRestore = original;
    await fillForm(page, changed);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(SUMMARY_URL, async (route) => {
      if (route.request().method() === 'PUT') await held;
      await route.continue();
    });
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/machine-dashboard-summary') && r.request().method() === 'PUT');
    await update.click();
    const busy = page.getByRole('button', { name: 'Updating...' });
    await expect(busy).toBeDisabled();
    release();
    expect((await saved).status()).toBe(200);
    await page.unroute(SUMMARY_URL);
    const toast = page.getByRole('status').filter({ hasText: 'Machine Dashboard Updated' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText(`Progress values for ${DIVISION} have been saved.`);
    await expect(update).toBeEnabled();
    for (const f of FIGURES) await expect(fieldOf(page, f)).not.toHaveAttribute('aria-invalid', 'true');
    await expectFormShows(page, changed);
    await expect(page.getByText(/^Last updated /)).toBeVisible();
    await expect(ndlsRow.getByRole('cell')).toHaveText([...FIGURES.map((f) => String(changed[f])), /.+/]);
    expect(figuresOf(await summaryOf(page.request, DIVISION))).toEqual(changed);

    // The audit log has the change, and only it (the refused attempts left no trace): who, which division, before and after.
    const ours = (await auditEntries(page)).filter((e) => e.id > auditBefore && e.entity === 'machine_dashboard_summary' && e.entityId === DIVISION);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({
      action: 'machine-summary.update',
      actorEmployeeId: ADMIN.employeeId,
      before: { division: DIVISION, ...original },
      after: { division: DIVISION, ...changed },
    });

    // Cancel leaves the view without saving what was typed.
    await fieldOf(page, 'scope').fill(String(changed.scope + 100));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('view') === 'data-management');
    await expect(page.getByRole('heading', { name: 'Data Management', level: 2 })).toBeVisible();
    expect(figuresOf(await summaryOf(page.request, DIVISION))).toEqual(changed);

    // The reports landing: the new figures of the division, and the rollout sheet's count beside each (they differ now).
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: /^Reports & Analytics/ }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('view') === 'reports');
    const card = page.getByRole('region', { name: 'Machine Installation Progress' });
    const landingDivision = page.getByLabel('Division', { exact: true });
    await expect(landingDivision).toHaveValue('all');
    await expect(landingDivision.locator('option')).toHaveText(['All divisions', 'RTM/WR', 'FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR']);
    await landingDivision.selectOption(DIVISION);
    await expect(card).not.toHaveAttribute('aria-busy', 'true');
    const sheetOf = (f: (typeof FIGURES)[number]) => counted?.[f] ?? null;
    await expect.poll(() => shownProgress(card)).toEqual({
      figures: changed,
      sheet: Object.fromEntries(FIGURES.map((f) => [f, sheetOf(f)])),
    });
    await expect(card.getByText(/‘Rollout sheet’ is counted from the per-curve rollout records/)).toBeVisible();
    await expect(card.getByText(/^Figures updated /)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shot(page, testInfo, 'reports-landing-ndls-desktop');

    // Every other division as the API gives it (FZR/NR's entered figures run ahead of its sheet in the demo data).
    for (const other of ['all', 'RTM/WR', 'FZR/NR', 'BRC/WR', 'JBP/WCR']) {
      await landingDivision.selectOption(other);
      await expect(card).not.toHaveAttribute('aria-busy', 'true');
      const expected = expectedProgress(await progressOf(page.request, other));
      await expect.poll(() => shownProgress(card), { message: other }).toEqual(expected);
      if (other === 'FZR/NR') {
        expect(Object.values(expected.sheet).some((n) => n !== null), 'FZR/NR differs from its sheet').toBe(true);
        await expect(card.getByText(/^Rollout sheet: /).first()).toBeVisible();
      }
    }
    await landingDivision.selectOption('FZR/NR');
    await expect(card.getByText(/^Rollout sheet: /).first()).toBeVisible();
    await shot(page, testInfo, 'reports-landing-fzr-desktop');
  } finally {
    if (toRestore !== null) {
      await putSummary(page.request, DIVISION, toRestore);
      toRestore = null;
    }
  }
  expect(figuresOf(await summaryOf(page.request, DIVISION))).toEqual(original);
});

/** The DEN with the most AENs (so that the AEN filter narrows), the first such by name. */
async function denWithAens(page: Page): Promise<{ den: string; aens: string[] }> {
  const all = await filtersOf(page.request);
  let best: { den: string; aens: string[] } | null = null;
  for (const den of all.dens) {
    const { aens } = await filtersOf(page.request, den);
    if (best === null || aens.length > best.aens.length) best = { den, aens };
  }
  if (best === null) throw new Error('the demo data has no DEN');
  expect(best.aens.length, `${best.den} has AENs to choose from`).toBeGreaterThan(1);
  return best;
}

test('the machine dashboard filters narrow the totals: all DENs, a DEN, an AEN under it', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await signInAsOwner(page);
  const { den, aens } = await denWithAens(page);
  const everything = await statsOf(page.request);
  const filters = await filtersOf(page.request);

  await page.goto('/machine-dashboard');
  await expect(page.getByRole('heading', { name: 'Machine Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('Lubricator rollout by DEN and AEN')).toBeVisible();
  const denSelect = page.getByLabel('DEN', { exact: true });
  const aenSelect = page.getByLabel('AEN', { exact: true });
  await expect(denSelect).toHaveValue('all');
  await expect(aenSelect).toHaveValue('all');
  await expect(denSelect.locator('option')).toHaveText(['All DENs', ...filters.dens]);
  await expect(aenSelect.locator('option')).toHaveText(['All AENs', ...filters.aens]);

  // All DENs: the totals, the funnel and the table by DEN, which adds up to the totals.
  await expectSettled(page);
  await expect.poll(() => shownTotals(page)).toEqual(figuresOf(everything.totals));
  const unfiltered = await shownTotals(page);
  expect(unfiltered.scope).toBeGreaterThan(0);
  const funnel = page.getByRole('region', { name: 'Where the rollout stands' });
  await expect(funnel.getByRole('list', { name: 'Rollout funnel' }).getByRole('listitem')).toHaveCount(4);
  await expect(funnel.getByRole('listitem').first()).toContainText(`Curves in scope${unfiltered.scope.toLocaleString('en-IN')}100%`);
  const breakdown = page.getByRole('region', { name: 'By DEN' });
  const byDen = await shownBreakdown(breakdown.getByRole('table', { name: 'Rollout by DEN' }));
  expect(byDen.map((r) => r.name)).toEqual(everything.breakdown.rows.map((r) => r.name ?? 'Not assigned'));
  for (const f of FIGURES) expect(byDen.reduce((n, r) => n + r[f], 0), `sum of ${f}`).toBe(unfiltered[f]);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'dashboard-all-desktop');

  // A DEN: its row of the table, no more than all of them; the AENs offered are its own.
  const denRow = byDen.find((r) => r.name === den);
  expect(denRow, `${den} has a row`).toBeDefined();
  await denSelect.selectOption(den);
  await expect(page.getByRole('heading', { name: `AENs under ${den}` })).toBeVisible();
  await expectSettled(page);
  await expect.poll(() => shownTotals(page)).toEqual(figuresOf(denRow as Figures));
  const denTotals = await shownTotals(page);
  for (const f of FIGURES) expect(denTotals[f], f).toBeLessThanOrEqual(unfiltered[f]);
  expect(denTotals.scope).toBeLessThan(unfiltered.scope);
  await expect(aenSelect).toHaveValue('all');
  await expect(aenSelect.locator('option')).toHaveText(['All AENs', ...aens]);
  expect((await filtersOf(page.request, den)).aens).toEqual(aens);
  expect(aens.length).toBeLessThan(filters.aens.length);
  const byAen = await shownBreakdown(page.getByRole('table', { name: 'Rollout by AEN' }));
  // The AENs offered are those the DEN's table lists (an AEN with no name is not offered).
  expect(byAen.map((r) => r.name).filter((n) => n !== 'Not assigned')).toEqual(aens);
  for (const f of FIGURES) expect(byAen.reduce((n, r) => n + r[f], 0), `sum of ${f} under ${den}`).toBe(denTotals[f]);
  await shot(page, testInfo, 'dashboard-den-desktop');

  // An AEN under it: that AEN's row, no more than the DEN.
  const aen = aens[aens.length - 1] as string;
  const aenRow = byAen.find((r) => r.name === aen);
  await aenSelect.selectOption(aen);
  await expectSettled(page);
  await expect.poll(() => shownTotals(page)).toEqual(figuresOf(aenRow as Figures));
  const aenTotals = await shownTotals(page);
  for (const f of FIGURES) expect(aenTotals[f], f).toBeLessThanOrEqual(denTotals[f]);
  expect(aenTotals.scope).toBeLessThan(denTotals.scope);
  expect(aenTotals).toEqual(figuresOf((await statsOf(page.request, { den, aen })).totals));
  await expect.poll(async () => (await shownBreakdown(page.getByRole('table', { name: 'Rollout by AEN' }))).map((r) => r.name)).toEqual([aen]);

  // Back to all DENs: the AEN filter is dropped with the DEN, and the totals are all of them again.
  await denSelect.selectOption('all');
  await expect(aenSelect).toHaveValue('all');
  await expectSettled(page);
  await expect.poll(() => shownTotals(page)).toEqual(unfiltered);
  await expect(aenSelect.locator('option')).toHaveText(['All AENs', ...filters.aens]);

  // A DEN's name in the table opens its AENs as the DEN filter does.
  await page.getByRole('table', { name: 'Rollout by DEN' }).getByRole('button', { name: den, exact: true }).click();
  await expect(denSelect).toHaveValue(den);
  await expect(page.getByRole('heading', { name: `AENs under ${den}` })).toBeVisible();
  await expectSettled(page);
  await expect.poll(() => shownTotals(page)).toEqual(denTotals);

  // Back leads to the admin dashboard.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expectPath(page, '/admin');
});

test('Download Machine Report downloads the dated XLSX of the chosen DEN, one row per curve', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await signInAsOwner(page);
  const { den } = await denWithAens(page);
  await page.goto('/machine-dashboard');
  const denSelect = page.getByLabel('DEN', { exact: true });
  await expect(denSelect.locator('option', { hasText: den })).toHaveCount(1);
  await denSelect.selectOption(den);
  await expect(page.getByRole('heading', { name: `AENs under ${den}` })).toBeVisible();
  await expectSettled(page);
  await expect.poll(async () => (await shownTotals(page)).scope).toBe((await statsOf(page.request, { den })).totals.scope);
  const { scope } = await shownTotals(page);

  const dayBefore = todayIn(APP_TIME_ZONE);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/machine-report');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Machine Report' }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(new URL(response.url()).searchParams.get('den')).toBe(den);
  const made = (await response.json()) as { reportId: string; recordCount: number };
  expect(made.recordCount).toBe(scope);
  const download = await downloading;
  const dayAfter = todayIn(APP_TIME_ZONE);
  expect(download.suggestedFilename()).toMatch(/^Machine_Dashboard_\d{4}-\d{2}-\d{2}\.xlsx$/);
  expect([`Machine_Dashboard_${dayBefore}.xlsx`, `Machine_Dashboard_${dayAfter}.xlsx`]).toContain(download.suggestedFilename());
  expect(new URL(download.url()).pathname).toBe(`/api/download/${made.reportId}`);
  const toast = page.getByRole('status').filter({ hasText: 'Report Generated' });
  await expect(toast).toContainText(`Machine report with ${scope} curves`);
  await expect(page.getByRole('button', { name: 'Download Machine Report' })).toBeEnabled();

  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  const sheets = await readWorkbook(bytes);
  expect(sheets.map((s) => s.name)).toEqual(['मशीनें | Machines', 'विवरण | About']);
  const [header, ...rows] = (sheets[0]?.rows ?? []).map(valuesOf);
  // The spec's column titles, each in Hindi then English.
  expect(header).toEqual(
    ['No.', 'Division', 'Section', 'Curve', 'Line', 'Phase', 'DEN', 'AEN', 'SSE', 'Foundation', 'Machine installed', 'Commissioned', 'HKM code', 'Controller number'].map(bi),
  );
  // One row per curve of the DEN: as many as the Scope total the page showed.
  expect(rows).toHaveLength(scope);
  const denColumn = (header ?? []).indexOf('DEN');
  for (const row of rows) expect(String(row[denColumn]).trim()).toBe(den);
  const about = new Map((sheets[1]?.rows ?? []).slice(1).map((r) => [String(r[0]?.value), String(r[1]?.value)]));
  expect(about.get('DEN')).toBe(den);
  expect(about.get('AEN')).toBe('सभी / All');
  expect(about.get(bi('Curves'))).toBe(String(scope));
  expect(about.get(bi('Made by'))).toBe(`${ADMIN.name} (${ADMIN.employeeId})`);
  await shot(page, testInfo, 'dashboard-download-desktop');

  // With an AEN chosen too, the report is that AEN's curves.
  const aen = (await filtersOf(page.request, den)).aens[0] as string;
  await page.getByLabel('AEN', { exact: true }).selectOption(aen);
  await expectSettled(page);
  const aenScope = (await statsOf(page.request, { den, aen })).totals.scope;
  await expect.poll(async () => (await shownTotals(page)).scope).toBe(aenScope);
  expect(aenScope).toBeLessThan(scope);
  const again = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Machine Report' }).click();
  const aenSheets = await readWorkbook(await readFile(await (await again).path()));
  const [aenHeader, ...aenRows] = (aenSheets[0]?.rows ?? []).map(valuesOf);
  expect(aenRows).toHaveLength(aenScope);
  const aenColumn = (aenHeader ?? []).indexOf('AEN');
  for (const row of aenRows) {
    expect(String(row[denColumn]).trim()).toBe(den);
    expect(String(row[aenColumn]).trim()).toBe(aen);
  }
});

/**
 * Known bug (fails until fixed): the form is re-made whenever the division's saved figures are
 * fetched again (its React key holds the query's dataUpdatedAt), so what the owner has typed
 * and not yet saved is silently replaced by the saved figures: on going back to a division
 * already seen (its cached figures are shown, then fetched again), and when the network comes
 * back after a blip (refetch on reconnect). Nothing is saved here.
 */
test('the figures the owner is typing are kept when the saved figures are fetched again', async ({ page, context }) => {
  test.setTimeout(60_000);
  // A division no spec changes (this one saves nothing): its saved figures hold still.
  const UNTOUCHED = 'JBP/WCR';
  await signInAsOwner(page);
  const saved = figuresOf(await summaryOf(page.request, UNTOUCHED));
  const rtm = figuresOf(await summaryOf(page.request, 'RTM/WR'));
  await page.goto('/admin?view=machine-dashboard-management');
  const division = page.getByLabel('Division', { exact: true });
  const scope = fieldOf(page, 'scope');
  await expect(scope).toHaveValue(String(rtm.scope));
  await division.selectOption(UNTOUCHED);
  await expect(scope).toHaveValue(String(saved.scope));
  await division.selectOption('RTM/WR');
  await expect(scope).toHaveValue(String(rtm.scope));

  const isSummaryOf = (url: URL, of: string) => url.pathname === '/api/machine-dashboard-summary' && url.searchParams.get('division') === of;
  /** Lets React apply whatever the last answer changes. */
  const settle = async () => {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForTimeout(250);
  };

  // Back to a division already seen: its figures show at once (from the cache) while they are fetched again.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route((url) => isSummaryOf(url, UNTOUCHED), async (route) => {
    await held;
    await route.continue();
  });
  const refetched = page.waitForResponse((r) => isSummaryOf(new URL(r.url()), UNTOUCHED));
  await division.selectOption(UNTOUCHED);
  await expect(scope).toHaveValue(String(saved.scope));
  const typed = String(saved.scope + 11);
  await scope.fill(typed);
  await expect(scope).toHaveValue(typed);
  release();
  await refetched;
  await settle();
  await page.unroute((url) => isSummaryOf(url, UNTOUCHED));
  await expect.soft(scope, 'typed Scope after the division was fetched again').toHaveValue(typed);

  // A network blip: the figures are fetched again when the connection returns.
  const typedAgain = String(saved.scope + 12);
  await scope.fill(typedAgain);
  const afterBlip = page.waitForResponse((r) => isSummaryOf(new URL(r.url()), UNTOUCHED), { timeout: 5_000 }).catch(() => null);
  await context.setOffline(true);
  await context.setOffline(false);
  await afterBlip;
  await settle();
  await expect.soft(scope, 'typed Scope after a network blip').toHaveValue(typedAgain);

  // Nothing was saved.
  expect(figuresOf(await summaryOf(page.request, UNTOUCHED))).toEqual(saved);
});

/**
 * On a slow network, a newly chosen DEN's AENs take a while to arrive. An AEN of the previous
 * DEN must not be pickable meanwhile: kept in the filter although the new list lacks it, the
 * select would fall back to showing 'All AENs' while the totals (and the report) were of that
 * foreign AEN under the new DEN, which is none: 0 curves under "this DEN, all AENs". (Seen in
 * an earlier build; the AEN list is now disabled while it loads. This keeps it so.)
 */
test("the totals always match the filters shown, even when an AEN is picked while the DEN's AENs load", async ({ page }) => {
  test.setTimeout(60_000);
  await signInAsOwner(page);
  const { dens } = await filtersOf(page.request);
  // Two DENs with AENs of their own: the first DEN's AEN is not under the second.
  let pair: { first: string; foreignAen: string; second: string } | null = null;
  for (const first of dens) {
    const firstAens = (await filtersOf(page.request, first)).aens;
    for (const second of dens) {
      if (second === first) continue;
      const secondAens = (await filtersOf(page.request, second)).aens;
      const foreignAen = firstAens.find((a) => !secondAens.includes(a));
      if (foreignAen && secondAens.length > 0) pair = { first, foreignAen, second };
      if (pair) break;
    }
    if (pair) break;
  }
  if (!pair) throw new Error('the demo data has no two DENs with different AENs');
  const { first, foreignAen, second } = pair;

  await page.goto('/machine-dashboard');
  const denSelect = page.getByLabel('DEN', { exact: true });
  const aenSelect = page.getByLabel('AEN', { exact: true });
  await denSelect.selectOption(first);
  await expect(aenSelect.locator('option', { hasText: foreignAen })).toHaveCount(1);

  // The second DEN's AENs are held back; meanwhile an AEN of the old list is picked.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isFilters = (url: URL) => url.pathname === '/api/machine-filters';
  await page.route(isFilters, async (route) => {
    await held;
    await route.continue();
  });
  await denSelect.selectOption(second);
  // A person tries to pick it; a page that does not offer it (disabled, or not in the list) is right.
  await aenSelect.selectOption(foreignAen, { timeout: 2_000 }).catch(() => undefined);
  const arrived = page.waitForResponse((r) => isFilters(new URL(r.url())));
  release();
  await arrived;
  await page.unroute(isFilters);
  await expectSettled(page);

  // Whatever the selects show now, the totals are of exactly that.
  await expect(denSelect).toHaveValue(second);
  const shownAen = await aenSelect.inputValue();
  const expected = figuresOf((await statsOf(page.request, shownAen === 'all' ? { den: second } : { den: second, aen: shownAen })).totals);
  await expect.poll(() => shownTotals(page), { message: `totals of ${second} / ${shownAen}` }).toEqual(expected);
});
