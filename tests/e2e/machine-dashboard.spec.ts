/**
 * The machine rollout (issue 13) on a phone: a Client's reports landing with their division's
 * installation progress, the machine dashboard held to their division, and the roles that may
 * not open it. Only reads: the figures are compared with the API's answers to the same session
 * (and to an Admin's session of its own), never with numbers written down here.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { bi } from '../../server/test/bilingual.js';
import { readWorkbook, valuesOf } from '../../server/test/xlsx.js';
import { ADMIN, CLIENT, TECHNICIAN, expectPath, signIn } from './helpers.js';
import {
  apiSession,
  expectedProgress,
  expectNoSidewaysScroll,
  expectSettled,
  FIGURES,
  figuresOf,
  filtersOf,
  progressOf,
  shot,
  shownPhoneBreakdown,
  shownProgress,
  shownTotals,
  statsOf,
} from './machine-helpers.js';

test("a Client's landing shows their division's installation progress, and their machine dashboard is their division's", async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(60_000);
  await signIn(page, CLIENT.employeeId);
  await expectPath(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 2 })).toBeVisible();

  // Their division is stated, not chosen; the back button signs out.
  const access = page.getByRole('region', { name: 'Division access' });
  await expect(access).toContainText(CLIENT.division);
  await expect(page.getByLabel('Division', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back to Main App' })).toHaveCount(0);

  // The progress cards are the division's figures, as the API gives them to this Client.
  const progress = await progressOf(page.request, 'all');
  expect(progress.division).toBe(CLIENT.division);
  expect(progress.summary).not.toBeNull();
  // Whatever division a Client asks for, the answer is their own.
  expect(await progressOf(page.request, 'FZR/NR')).toEqual(progress);
  const card = page.getByRole('region', { name: 'Machine Installation Progress' });
  await expect(card).not.toHaveAttribute('aria-busy', 'true');
  await expect.poll(() => shownProgress(card)).toEqual(expectedProgress(progress));
  // RTM/WR's entered figures agree with its rollout sheet in the demo data: no second count shown.
  if (Object.values(expectedProgress(progress).sheet).every((n) => n === null)) await expect(card.getByText(/^Rollout sheet: /)).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'client-landing-phone');

  // The owner's view is not theirs, on the page nor on the server.
  await page.goto('/admin?view=machine-dashboard-management');
  const restricted = page.getByRole('alert').filter({ hasText: 'Access Restricted' });
  await expect(restricted).toBeVisible();
  await restricted.getByRole('button', { name: 'Close notification' }).click();
  await expect(restricted).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Update Progress Values' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 2 })).toBeVisible();
  const put = await page.request.put('/api/machine-dashboard-summary', {
    data: { division: CLIENT.division, ...figuresOf(progress.summary ?? { scope: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 }) },
  });
  expect(put.status()).toBe(403);

  // The machine dashboard, from the progress card: RTM/WR's DENs only.
  await page.getByRole('link', { name: 'Open Machine Dashboard' }).click();
  await expectPath(page, '/machine-dashboard');
  await expect(page.getByRole('heading', { name: 'Machine Dashboard', level: 1 })).toBeVisible();
  const mine = await filtersOf(page.request);
  const denSelect = page.getByLabel('DEN', { exact: true });
  await expect(denSelect.locator('option')).toHaveText(['All DENs', ...mine.dens]);
  expect(mine.dens.length).toBeGreaterThan(0);

  const admin = await apiSession(playwright, testInfo, ADMIN.employeeId);
  try {
    const everyDen = await filtersOf(admin);
    const rtm = await progressOf(admin, CLIENT.division);
    // Every DEN the Client sees is one the Admin sees, and the Admin sees more (other divisions).
    for (const den of mine.dens) expect(everyDen.dens, den).toContain(den);
    expect(everyDen.dens.length).toBeGreaterThan(mine.dens.length);
    // The Client's scope is RTM/WR's count from the rollout records.
    await expectSettled(page);
    await expect.poll(async () => (await shownTotals(page)).scope).toBe(rtm.fromCurveRecords?.scope);
    expect(await shownTotals(page)).toEqual(rtm.fromCurveRecords);
    // Each DEN's row is what the Admin's dashboard has for that DEN.
    // At phone size the DENs are blocks of a list, not a table.
    await expect(page.getByRole('table', { name: 'Rollout by DEN' })).toBeHidden();
    const rows = await shownPhoneBreakdown(page.getByRole('list', { name: 'Rollout by DEN' }));
    expect(rows.map((r) => r.name)).toEqual(mine.dens);
    for (const row of rows) expect(figuresOf(row), row.name).toEqual(figuresOf((await statsOf(admin, { den: row.name })).totals));
  } finally {
    await admin.dispose();
  }
  expect(figuresOf(await shownTotals(page))).toEqual(figuresOf((await statsOf(page.request)).totals));
  await expect(page.getByRole('region', { name: 'Where the rollout stands' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'client-dashboard-phone');

  // Their machine report is their division's: one row per RTM/WR curve.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Machine Report' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Machine_Dashboard_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const [machines] = await readWorkbook(await readFile(await download.path()));
  const [header, ...rows] = (machines?.rows ?? []).map(valuesOf);
  const divisionColumn = (header ?? []).indexOf(bi('Division'));
  expect(divisionColumn).toBeGreaterThanOrEqual(0);
  expect(rows).toHaveLength((await shownTotals(page)).scope);
  for (const row of rows) expect(row[divisionColumn]).toBe(CLIENT.division);
  await expect(page.getByRole('status').filter({ hasText: 'Report Generated' })).toContainText(`Machine report with ${rows.length} curves`);

  // A DEN of theirs narrows it, at phone size as at a desk.
  const den = mine.dens[0] as string;
  await denSelect.selectOption(den);
  await expect(page.getByRole('heading', { name: `AENs under ${den}` })).toBeVisible();
  await expectSettled(page);
  await expect.poll(() => shownTotals(page)).toEqual(figuresOf((await statsOf(page.request, { den })).totals));
  await expect(page.getByLabel('AEN', { exact: true }).locator('option')).toHaveText(['All AENs', ...(await filtersOf(page.request, den)).aens]);
  for (const f of FIGURES) expect((await shownTotals(page))[f]).toBeGreaterThanOrEqual(0);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'client-dashboard-den-phone');

  // Back leads to their reports landing.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expectPath(page, '/admin');
  await expect(page.getByRole('region', { name: 'Division access' })).toBeVisible();
});

test('a Technician opening the machine dashboard lands on the purpose screen', async ({ page }) => {
  await signIn(page, TECHNICIAN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto('/machine-dashboard');
  await expectPath(page, '/purpose');
  await expect(page.getByRole('heading', { name: 'Machine Dashboard' })).toHaveCount(0);
  // The server agrees.
  expect((await page.request.get('/api/machine-stats')).status()).toBe(403);
  expect((await page.request.get('/api/machine-filters')).status()).toBe(403);
});

test('an Admin who is not an owner sees no Machine Dashboard tile, no documents and is refused the owner views', async ({ page, playwright }, testInfo) => {
  // Demo mode makes the demo Admin an owner; an Admin added by them is not. A new one per run.
  const owner = await apiSession(playwright, testInfo, ADMIN.employeeId);
  const employeeId = `ADMX${Date.now().toString(36).toUpperCase()}`;
  const phone = `98${String(Date.now()).slice(-8)}`;
  try {
    const added = await owner.post('/api/users', { data: { employeeId, name: 'Non-owner Admin', phone, role: 'Admin' } });
    expect(added.status(), await added.text()).toBe(201);
  } finally {
    await owner.dispose();
  }
  // The phone is only a first password: the new Admin chooses their own before anything else.
  const own = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    expect((await own.post('/api/auth/login', { data: { employeeId, password: phone } })).status()).toBe(200);
    const changed = await own.post('/api/auth/change-password', { data: { currentPassword: phone, newPassword: 'not an owner 1' } });
    expect(changed.status(), await changed.text()).toBe(200);
  } finally {
    await own.dispose();
  }
  await signIn(page, employeeId, 'not an owner 1');
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=data-management');
  await expect(page.getByRole('heading', { level: 2, name: 'Data Management' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Machine Dashboard/ })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 2, name: 'Administration' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Func. Reqs.' })).toHaveCount(0);
  // Asked for by URL, the editing view is refused with the spec's toast.
  await page.goto('/admin?view=machine-dashboard-management');
  await expect(page.getByText('Access Restricted')).toBeVisible();
  await expect(page.getByLabel('Scope', { exact: true })).toHaveCount(0);
  // The server refuses the owner's calls too, while the dashboard itself is open to any Admin.
  expect((await page.request.get('/api/machine-dashboard-summaries')).status()).toBe(403);
  expect((await page.request.put('/api/machine-dashboard-summary', { data: { division: 'RTM/WR', scope: 1, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 } })).status()).toBe(403);
  expect((await page.request.get('/api/download/requirements')).status()).toBe(403);
  expect((await page.request.get('/api/machine-stats')).status()).toBe(200);
});

test('the owner sees the Machine Dashboard tile and the dashboard at phone size', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=data-management');
  await expect(page.getByRole('button', { name: /^Machine Dashboard/ })).toBeVisible();
  await page.getByRole('button', { name: /^Machine Dashboard/ }).click();
  await expect(page.getByRole('heading', { name: 'Machine Dashboard', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update Progress Values' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'management-phone');

  await page.goto('/admin?view=reports');
  await expect(page.getByRole('region', { name: 'Machine Installation Progress' })).not.toHaveAttribute('aria-busy', 'true');
  await page.getByLabel('Division', { exact: true }).selectOption('FZR/NR');
  await expect(page.getByText(/^Rollout sheet: /).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'reports-landing-fzr-phone');

  await page.goto('/machine-dashboard');
  await expectSettled(page);
  await expect(page.getByRole('list', { name: 'Rollout by DEN' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Rollout by DEN' })).toBeHidden();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, 'dashboard-all-phone');
});
