/**
 * The Analytics view (issue 26) as an Admin and a Client use it, at a phone and a desktop
 * viewport (analytics.spec.ts and analytics.desktop.spec.ts run these): the filters in the URL
 * and the figures they change, the story the demo's year of history tells, the records behind
 * a figure, one chart's Excel and the whole view's PDF read back, axe and the 360 px check.
 *
 * Only the demo data is read, over the last 12 months: the records specs upload records dated
 * long before that. The Admin's narrowed figures are of JBP/WCR, a division no other spec adds
 * visits to (the inspection specs use RTM/WR and FZR/NR), so the view, its Excel and its PDF
 * made a moment apart count the same records.
 */
import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page, test } from '@playwright/test';
import type { AnalyticsDashboard } from '../../common/schemas/analytics.js';
import { SERIES_COLORS } from '../../server/pdf/pdf-bar-chart.js';
import { pdfInfo, pdfPageRaster, pdfPageTexts, type PdfRaster } from '../../server/test/pdf.js';
import { bi, sheetBi } from '../../server/test/bilingual.js';
import { readWorkbook, type ReadSheet, valuesOf } from '../../server/test/xlsx.js';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from './a11y.js';
import { ADMIN, CLIENT, expectPath, signIn } from './helpers.js';
import type { ReportJobAnswer } from './pdf-report-helpers.js';

/** The division the Admin narrows to: friction rises in its section JBP-ET (server/db/seed/history.ts). */
const DIVISION = 'JBP/WCR';
const RISING_SECTION = 'JBP-ET';
/** The head of the parts Pareto over the year, all divisions: NDLS-GZB's stolen solar panels. */
const PARETO_LEADER = 'Solar & Battery – Solar Panel 40 W';

const FRICTION_BY_SECTION = 'By section over the range, highest median first';
const COMPLIANCE_BY_SECTION = 'By section at the range’s end, worst first';
const COMPLIANCE_CHART = 'Share within interval per period';

/** The range line above the figures ("28 Nov 2025 to 27 Nov 2026 · JBP/WCR"), as an Indian user reads dates. */
function coveringText(scope: AnalyticsDashboard['scope']): string {
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${day(scope.from)} to ${day(scope.to)} · ${[scope.division ?? 'all divisions', scope.section, scope.sse].filter(Boolean).join(' · ')}`;
}

const isDashboardAnswer = (url: string) => new URL(url).pathname === '/api/analytics/dashboard';

/**
 * Does `change` and answers the dashboard the server sent for it (the one asked with
 * `asked`'s params), once the view shows it: its range line, nothing still being fetched.
 */
async function figuresAfter(page: Page, asked: (query: URLSearchParams) => boolean, change: () => Promise<unknown>): Promise<AnalyticsDashboard> {
  const answered = page.waitForResponse((r) => isDashboardAnswer(r.url()) && asked(new URL(r.url()).searchParams), { timeout: 30_000 });
  await change();
  const response = await answered;
  expect(response.status()).toBe(200);
  const dashboard = (await response.json()) as AnalyticsDashboard;
  await expect(page.getByText(coveringText(dashboard.scope), { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  return dashboard;
}

/** From the reports landing the user is on, the Analytics tile, and the figures it opens on. */
async function openAnalytics(page: Page): Promise<AnalyticsDashboard> {
  await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 2 })).toBeVisible();
  const dashboard = await figuresAfter(
    page,
    () => true,
    () => page.getByRole('navigation', { name: 'Report generators' }).getByRole('button', { name: /^Analytics/ }).click(),
  );
  await expect(page).toHaveURL((url) => url.pathname === '/admin' && url.searchParams.get('view') === 'analytics');
  await expect(page.getByRole('heading', { name: 'Analytics', level: 2, exact: true })).toBeVisible();
  return dashboard;
}

async function adminOpensAnalytics(page: Page): Promise<AnalyticsDashboard> {
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await expectPath(page, '/admin');
  await page.getByRole('button', { name: /^Reports & Analytics/ }).click();
  return openAnalytics(page);
}

/** The Admin straight at a link to the view (filters in the URL reproduce it). */
async function adminAtLink(page: Page, filters: Record<string, string>): Promise<AnalyticsDashboard> {
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  const search = new URLSearchParams({ view: 'analytics', ...filters });
  return figuresAfter(
    page,
    (query) => query.get('division') === (filters['division'] ?? null),
    () => page.goto(`/admin?${search.toString()}`),
  );
}

/** What a chart says in words, the paragraph under its title. */
const summaryOf = (page: Page, chart: string) => page.getByRole('region', { name: chart, exact: true }).locator('p').first();

/** A headline tile's figure, by its label. */
function tile(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'At a glance' })
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
}

const count = (text: string | null) => Number((text ?? '').replace(/,/g, ''));
const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);

/** A figure's table (the scrolling group named by its caption), every row shown. */
async function fullTable(page: Page, region: string, caption: string) {
  const table = page.getByRole('region', { name: region }).getByRole('group', { name: caption, exact: true });
  await expect(table).toBeVisible();
  // A long table's own Show all comes right after its box.
  const showAll = table.locator('xpath=following-sibling::button[1]');
  if ((await showAll.count()) > 0) {
    if ((await showAll.getAttribute('aria-expanded')) === 'false') await showAll.click();
    await expect(showAll).toHaveAttribute('aria-expanded', 'true');
  }
  return table;
}

/** Each row of a table: its name (the row header) then its cells, as the page shows them. */
async function rowsOf(table: ReturnType<Page['getByRole']>): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())));
}

async function workbookOf(download: Download): Promise<ReadSheet[]> {
  return readWorkbook(await readFile(await download.path()));
}

/** A sheet by the English half of its tab name ("खंडवार | By section"). */
function sheetNamed(sheets: ReadSheet[], name: string): ReadSheet {
  const sheet = sheets.find((s) => s.name === sheetBi(name));
  expect(sheet, `the sheet ${name}`).toBeDefined();
  return sheet as ReadSheet;
}

/** The About sheet's facts, by their bilingual name (bi). */
const aboutOf = (sheets: ReadSheet[]) => new Map(sheetNamed(sheets, 'About').rows.slice(1).map((r) => [r[0]?.value, r[1]?.value]));

/** The compliance chart's Excel, downloaded from its figure. */
async function downloadComplianceExcel(page: Page): Promise<Download> {
  const downloaded = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('link', { name: `Download Excel: ${COMPLIANCE_CHART}` }).click();
  return downloaded;
}

/** An Excel file's name: its stem then the day it was made, yyyy-MM-dd. */
const datedName = (stem: string) => new RegExp(`^${stem}_\\d{4}-\\d{2}-\\d{2}\\.xlsx$`);

/** The pixels of the chart's second series (orange): the PDF's text and tables never use it. */
function secondSeriesPixels(raster: PdfRaster): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt((SERIES_COLORS[1] ?? '').slice(i, i + 2), 16)) as [number, number, number];
  let n = 0;
  for (let i = 0; i + 2 < raster.rgb.length; i += 3) {
    if (Math.abs((raster.rgb[i] ?? 0) - r) < 40 && Math.abs((raster.rgb[i + 1] ?? 0) - g) < 40 && Math.abs((raster.rgb[i + 2] ?? 0) - b) < 50) n += 1;
  }
  return n;
}

export function analyticsTests(project: 'phone' | 'desktop') {
  // Sign-in, a year of demo figures and file downloads on a shared 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test(`an Admin changes the filters, reads the demo's story and opens the records behind a figure (${project})`, async ({ page }) => {
    const lastWeeks = await adminOpensAnalytics(page);
    await expect(page.getByLabel('Period', { exact: true })).toHaveValue('4w');
    await expect(page.getByLabel('Show', { exact: true })).toHaveValue('week');
    await expect(tile(page, 'Service visits')).toHaveText(lastWeeks.summary.visits.service.toLocaleString('en-IN'));
    const weeksVisits = count(await tile(page, 'Service visits').textContent());
    expect(weeksVisits).toBeGreaterThan(0);

    // Twelve months, month by month (the period's own grain, so the URL leaves it out).
    const year = await figuresAfter(
      page,
      (query) => query.get('by') === 'month' && query.get('division') === null,
      () => page.getByLabel('Period', { exact: true }).selectOption('12m'),
    );
    await expect(page).toHaveURL((url) => url.searchParams.get('view') === 'analytics' && url.searchParams.get('period') === '12m' && !url.searchParams.has('by'));
    await expect(page.getByLabel('Show', { exact: true })).toHaveValue('month');
    expect(year.periods.length).toBeGreaterThanOrEqual(12);
    const yearVisits = count(await tile(page, 'Service visits').textContent());
    expect(yearVisits).toBe(year.summary.visits.service);
    expect(yearVisits, 'a year holds more visits than four weeks').toBeGreaterThan(weeksVisits);

    // The story of the year: every headline has a figure, compliance rose, the solar panels lead the parts.
    for (const label of ['Service compliance', 'CoF compliance']) await expect(tile(page, label)).toHaveText(/^\d+%$/);
    for (const label of ['CoF median', 'CoF 90th percentile']) await expect(tile(page, label)).toHaveText(/^0\.\d\d$/);
    for (const label of ['Part broken', 'Part stolen', 'Machine not working', 'Open actions']) {
      expect(count(await tile(page, label).textContent()), label).toBeGreaterThan(0);
    }
    // A chart's summary is its figure's paragraph (the drawing's own description repeats it).
    await expect(summaryOf(page, COMPLIANCE_CHART)).toHaveText(/^Service compliance rose from \d+% to \d+% over the range\./);
    const sections = await rowsOf(await fullTable(page, 'Schedule compliance', COMPLIANCE_BY_SECTION));
    expect(sections.map((row) => row[0])).toEqual(year.compliance.bySection.map((s) => s.section));
    expect(sections.length, 'the compliance table lists the sections').toBeGreaterThan(10);
    await expect(summaryOf(page, 'Parts broken or stolen, most first')).toHaveText(new RegExp(`^${PARETO_LEADER} leads with \\d+`));

    // One division: fewer visits, and its rising friction.
    const division = await figuresAfter(
      page,
      (query) => query.get('division') === DIVISION,
      () => page.getByLabel('Division/Railway', { exact: true }).selectOption(DIVISION),
    );
    await expect(page).toHaveURL((url) => url.searchParams.get('division') === DIVISION && url.searchParams.get('period') === '12m');
    const divisionVisits = count(await tile(page, 'Service visits').textContent());
    expect(divisionVisits).toBe(division.summary.visits.service);
    expect(divisionVisits).toBeLessThan(yearVisits);
    const friction = page.getByRole('region', { name: 'Friction' });
    await expect(summaryOf(page, 'CoF median and 90th percentile per period')).toHaveText(/^The median CoF rose from 0\.\d\d to 0\.\d\d over the range\./);
    await expect(friction.getByRole('list', { name: 'Curves whose last three readings rise' }).getByText(`${RISING_SECTION} · Curve`, { exact: false }).first()).toBeVisible();

    // The section's CoF readings open as its records, the filters filled in, as many as the figure counts.
    const bySection = await fullTable(page, 'Friction', FRICTION_BY_SECTION);
    const row = bySection.locator('tbody tr').filter({ has: page.getByRole('link', { name: `Open the CoF records of ${RISING_SECTION}`, exact: true }) });
    const readings = count(await row.locator('td').first().textContent());
    expect(readings).toBe(division.friction.bySection.find((s) => s.section === RISING_SECTION)?.count);
    expect(readings).toBeGreaterThan(0);
    await row.getByRole('link', { name: `Open the CoF records of ${RISING_SECTION}`, exact: true }).click();
    const { from, to } = division.scope;
    await expect(page).toHaveURL(
      (url) =>
        url.pathname === '/admin' &&
        url.searchParams.get('view') === 'records-management' &&
        url.searchParams.get('type') === 'CoF' &&
        url.searchParams.get('from') === from &&
        url.searchParams.get('to') === to &&
        url.searchParams.get('division') === DIVISION &&
        url.searchParams.get('section') === RISING_SECTION,
    );
    await expect(page.locator('#filter-type')).toHaveValue('CoF');
    await expect(page.locator('#filter-from')).toHaveValue(from);
    await expect(page.locator('#filter-to')).toHaveValue(to);
    await expect(page.locator('#filter-division')).toHaveValue(DIVISION);
    await expect(page.locator('#filter-section')).toHaveValue(RISING_SECTION);
    await expect(page.getByText(new RegExp(`^Showing 1–\\d+ of ${readings.toLocaleString('en-IN')} records$`))).toBeVisible({ timeout: 15_000 });
    const cards = page.getByRole('list', { name: 'Inspection records' }).getByRole('article');
    await expect(cards.first()).toBeVisible();
    for (const text of await cards.allTextContents()) expect(text).toContain(`${DIVISION} · ${RISING_SECTION} · Curve`);
  });

  test(`an Admin downloads the compliance chart's Excel: its sheet carries the figures the view shows (${project})`, async ({ page }) => {
    const dashboard = await adminAtLink(page, { period: '12m', division: DIVISION });
    const shown = await rowsOf(await fullTable(page, 'Schedule compliance', COMPLIANCE_BY_SECTION));
    expect(shown.length).toBeGreaterThan(1);

    const file = await downloadComplianceExcel(page);
    expect(file.suggestedFilename()).toMatch(datedName('Analytics_compliance_JBP-WCR'));
    const sheets = await workbookOf(file);
    expect(sheets.map((s) => s.name)).toEqual(['अवधिवार | By period', 'खंडवार | By section', 'SSE-वार | By SSE', 'विवरण | About']);
    const about = aboutOf(sheets);
    expect(about.get(bi('Division'))).toBe(DIVISION);
    expect(about.get(bi('Range'))).toBe(`${dashboard.scope.from} से ${dashboard.scope.to} तक / ${dashboard.scope.from} to ${dashboard.scope.to}`);
    expect(about.get(bi('Made by'))).toBe(`${ADMIN.name} (${ADMIN.employeeId})`);

    // By section: the rows the view lists, in its order, with its shares and overdue counts.
    const [header, ...rows] = sheetNamed(sheets, 'By section').rows;
    // Column titles in Hindi then English: found by their English half.
    const column = (name: string) => {
      const index = valuesOf(header).findIndex((title) => String(title).endsWith(` / ${name}`));
      expect(index, name).toBeGreaterThanOrEqual(0);
      return index;
    };
    const [division, section, serviceShare, cofShare, serviceOverdue, cofOverdue] = [
      'Division',
      'Section',
      'Service share within',
      'CoF share within',
      'Service overdue',
      'CoF overdue',
    ].map(column) as [number, number, number, number, number, number];
    const asShown = rows.map((cells) => {
      const value = (i: number) => cells[i]?.value ?? null;
      const share = (i: number) => percent(value(i) === null ? null : Number(value(i)));
      expect(value(division)).toBe(DIVISION);
      return [String(value(section)), share(serviceShare), share(cofShare), String(value(serviceOverdue)), String(value(cofOverdue))];
    });
    expect(asShown).toEqual(shown);

    // By period: a row a period of the view's chart.
    const periods = sheetNamed(sheets, 'By period').rows.slice(1);
    expect(periods.map((r) => r[0]?.value)).toHaveLength(dashboard.periods.length);
  });

  test(`an Admin makes the Analytics PDF: the progress bar, then the download with the scope, the figures and the charts (${project})`, async ({ page }) => {
    const dashboard = await adminAtLink(page, { period: '12m', division: DIVISION });
    const { scope, summary } = dashboard;
    const serviceVisits = await tile(page, 'Service visits').textContent();
    const cofVisits = await tile(page, 'CoF visits').textContent();
    expect(count(serviceVisits)).toBe(summary.visits.service);

    // The request is held until the bar has shown, so a report made within the server's quick wait shows it too.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const path = '/api/reports/analytics';
    await page.route(`**${path}`, async (route) => {
      await held;
      await route.continue();
    });
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === 'POST');
    const downloaded = page.waitForEvent('download', { timeout: 90_000 });
    const button = page.getByRole('button', { name: 'Download PDF', exact: true });
    await button.click();
    await expect(button).toBeDisabled();
    const bar = page.getByRole('progressbar', { name: /^Making the report: 0%/ });
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuenow', '0');
    release();
    const response = await answered;
    await page.unroute(`**${path}`);
    expect([200, 202]).toContain(response.status());
    expect(response.request().postDataJSON()).toEqual({ from: scope.from, to: scope.to, by: 'month', division: DIVISION });
    const job = (await response.json()) as ReportJobAnswer;
    expect(job.recordCount).toBe(summary.visits.service + summary.visits.cof);
    test.info().annotations.push({ type: 'report job', description: `${path} answered ${response.status()} (${job.status}, ${job.progress}%)` });

    await expect(page.getByRole('status').filter({ hasText: 'PDF report ready' })).toContainText('The Analytics report is downloading.', { timeout: 90_000 });
    const file = await downloaded;
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(button).toBeEnabled();
    expect(file.suggestedFilename()).toMatch(/^Analytics_JBP-WCR_\d{4}-\d{2}-\d{2}\.pdf$/);

    const bytes = await readFile(await file.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const info = await pdfInfo(bytes);
    expect(info['Title']).toBe('विश्लेषण / Analytics');
    const pages = await pdfPageTexts(bytes);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    const first = pages[0] ?? '';
    // Fixed texts in Hindi then English; a cell's text may wrap, so figures are read with the lines joined.
    expect(first).toMatch(/^\s*विश्लेषण \/ Analytics\s*$/m);
    const flat = first.replace(/\s+/g, ' ');
    expect(flat).toContain(`${DIVISION}, ${scope.from} to ${scope.to}, by month`);
    expect(first).toContain(`${ADMIN.name} (${ADMIN.employeeId})`);
    // The view's visit tiles (en-IN and en-GB group thousands alike below a lakh).
    expect(flat).toContain(`${serviceVisits} Service, ${cofVisits} CoF`);
    const rest = pages.slice(1).join('\n');
    for (const heading of ['Schedule compliance', 'Friction', 'Machines and parts', 'Grease', 'Field work']) expect(rest, heading).toContain(bi(heading));
    expect(rest).toContain(RISING_SECTION);

    // The charts are vector drawings (no images to list): the second series' orange on each chart's page.
    const pageOf = (heading: string) => pages.findIndex((p) => new RegExp(`^\\s*${bi(heading)}\\s*$`, 'm').test(p)) + 1;
    for (const heading of ['Schedule compliance', 'Friction', 'Machines and parts', 'Field work']) {
      const number = pageOf(heading);
      expect(number, heading).toBeGreaterThan(1);
      expect(secondSeriesPixels(await pdfPageRaster(bytes, number, 50)), `a chart on the ${heading} page`).toBeGreaterThan(50);
    }
    expect(secondSeriesPixels(await pdfPageRaster(bytes, 1, 50)), 'the first page has figures, no chart').toBeLessThan(20);
  });

  test(`the Analytics view passes axe${project === 'phone' ? ' and fits 360 px' : ''} (${project})`, async ({ page }) => {
    await adminAtLink(page, { period: '12m' });
    await expectNoSeriousA11yViolations(page, `Analytics, 12 months, the charts (${project})`);
    // Every figure as its table, each pressed until none is left.
    const showTable = page.getByRole('button', { name: 'Show as table' });
    const figures = await showTable.count();
    // Compliance, friction, faults, parts, working rate, grease and field work.
    expect(figures).toBe(7);
    for (let shown = 1; shown <= figures; shown++) {
      await showTable.first().click();
      await expect(page.getByRole('button', { name: 'Show as chart' })).toHaveCount(shown);
    }
    await expectNoSeriousA11yViolations(page, `Analytics, 12 months, the tables (${project})`);
    if (project === 'phone') {
      const viewport = page.viewportSize();
      await page.setViewportSize({ width: 360, height: 800 });
      await expectNoSidewaysScroll(page, 'Analytics at 360 px');
      if (viewport) await page.setViewportSize(viewport);
    }
  });

  test(`a Client reads their own division only, without the records, and their Excel names it (${project})`, async ({ page }) => {
    await signIn(page, CLIENT.employeeId);
    await expectPath(page, '/admin');
    const dashboard = await openAnalytics(page);
    expect(dashboard.scope.division).toBe(CLIENT.division);
    // Their division is shown, not chosen.
    await expect(page.getByLabel('Division/Railway', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('search', { name: 'Filters' }).getByText(CLIENT.division, { exact: true })).toBeVisible();

    // Another division asked for in the URL: theirs all the same.
    const year = await figuresAfter(
      page,
      (query) => query.get('by') === 'month',
      () => page.goto(`/admin?view=analytics&period=12m&division=${encodeURIComponent('FZR/NR')}`),
    );
    expect(year.scope.division).toBe(CLIENT.division);
    expect(year.compliance.bySection.length).toBeGreaterThan(0);
    for (const s of year.compliance.bySection) expect(s.divisionRailway).toBe(CLIENT.division);
    const sections = await rowsOf(await fullTable(page, 'Schedule compliance', COMPLIANCE_BY_SECTION));
    expect(sections.map((row) => row[0])).toEqual(year.compliance.bySection.map((s) => s.section));
    await page.getByRole('region', { name: 'Schedule compliance' }).getByRole('button', { name: 'Show as table' }).first().click();
    await expect(page.getByRole('group', { name: COMPLIANCE_CHART, exact: true })).toBeVisible();
    // No figure leads to the records they may not open.
    await expect(page.getByRole('link', { name: /Open the (\S+ )?records of / })).toHaveCount(0);

    const file = await downloadComplianceExcel(page);
    expect(file.suggestedFilename()).toMatch(datedName('Analytics_compliance_RTM-WR'));
    const sheets = await workbookOf(file);
    expect(aboutOf(sheets).get(bi('Division'))).toBe(CLIENT.division);
    for (const row of sheetNamed(sheets, 'By section').rows.slice(1)) expect(row[0]?.value).toBe(CLIENT.division);
  });
}
