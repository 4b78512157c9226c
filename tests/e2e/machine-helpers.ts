/**
 * Helpers of the machine dashboard specs (issue 13): the figures the API gives a session, the
 * figures the screens show (read from the page as a person reads them), a second signed-in API
 * session, and the layout checks and screenshots of both sizes.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page, type PlaywrightWorkerArgs, type TestInfo } from '@playwright/test';
import type {
  MachineFiltersResponse,
  MachineProgressResponse,
  MachineStatsResponse,
  MachineSummary,
} from '../../common/schemas/machines.js';
import { DEMO_PASSWORD } from './helpers.js';

export const FIGURES = ['scope', 'foundationCompleted', 'machinesInstalled', 'machinesCommissioned'] as const;
export type Figure = (typeof FIGURES)[number];
export type Figures = Record<Figure, number>;

/** The four figures of anything that has them (a summary, totals, a breakdown row). */
export const figuresOf = (from: Figures): Figures => ({
  scope: from.scope,
  foundationCompleted: from.foundationCompleted,
  machinesInstalled: from.machinesInstalled,
  machinesCommissioned: from.machinesCommissioned,
});

const withQuery = (url: string, params: Record<string, string | undefined>) => {
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return defined.length === 0 ? url : `${url}?${new URLSearchParams(defined).toString()}`;
};

export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `GET ${url}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

export const filtersOf = (request: APIRequestContext, den?: string) =>
  getJson<MachineFiltersResponse>(request, withQuery('/api/machine-filters', { den }));
export const statsOf = (request: APIRequestContext, where: { den?: string; aen?: string } = {}) =>
  getJson<MachineStatsResponse>(request, withQuery('/api/machine-stats', where));
export const progressOf = (request: APIRequestContext, division: string) =>
  getJson<MachineProgressResponse>(request, withQuery('/api/machine-progress', { division }));
export const summaryOf = (request: APIRequestContext, division: string) =>
  getJson<MachineSummary>(request, withQuery('/api/machine-dashboard-summary', { division }));

/** Puts a division's four figures (owner only), expecting them saved. */
export async function putSummary(request: APIRequestContext, division: string, figures: Figures): Promise<MachineSummary> {
  const response = await request.put('/api/machine-dashboard-summary', { data: { division, ...figures } });
  expect(response.status(), `PUT ${division}: ${await response.text()}`).toBe(200);
  return (await response.json()) as MachineSummary;
}

/** An API session of its own (not the page's), signed in as `employeeId`. Dispose of it after use. */
export async function apiSession(playwright: PlaywrightWorkerArgs['playwright'], testInfo: TestInfo, employeeId: string) {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const response = await request.post('/api/auth/login', { data: { employeeId, password: DEMO_PASSWORD } });
  expect(response.status(), `sign in ${employeeId}`).toBe(200);
  return request;
}

/** '1,234' (en-IN grouping) as a number; '–' (no figure) as null. */
export function numberOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '–' || trimmed === '') return null;
  const n = Number(trimmed.replace(/,/g, ''));
  if (!Number.isInteger(n)) throw new Error(`not a whole number: ${JSON.stringify(text)}`);
  return n;
}

/** Each term of a <dl> with the texts of its definitions, in order: { 'Scope': ['49'], ... }. */
export async function definitionsOf(list: Locator): Promise<Record<string, string[]>> {
  return list.evaluate((dl) => {
    const out: Record<string, string[]> = {};
    for (const group of Array.from(dl.children)) {
      const term = group.querySelector('dt')?.textContent?.trim() ?? '';
      out[term] = Array.from(group.querySelectorAll('dd')).map((dd) => dd.textContent?.trim() ?? '');
    }
    return out;
  });
}

const TOTAL_LABELS: Record<Figure, string> = {
  scope: 'Scope (curves)',
  foundationCompleted: 'Foundation completed',
  machinesInstalled: 'Machines installed',
  machinesCommissioned: 'Machines commissioned',
};

/** The machine dashboard's four totals as shown. */
export async function shownTotals(page: Page): Promise<Figures> {
  const shown = await definitionsOf(page.locator('dl[aria-label="Totals"]'));
  expect(Object.keys(shown)).toEqual(FIGURES.map((f) => TOTAL_LABELS[f]));
  return Object.fromEntries(FIGURES.map((f) => [f, numberOf(shown[TOTAL_LABELS[f]]?.[0] ?? '')])) as Figures;
}

/** The dashboard's filters are settled: no figures on their way. */
export async function expectSettled(page: Page) {
  await expect(page.getByRole('region', { name: 'Filters' })).not.toHaveAttribute('aria-busy', 'true');
}

export interface ShownRow extends Figures {
  name: string;
  done: string;
  lastProgress: string;
}

/** The rows of the breakdown table ('Rollout by DEN' or 'Rollout by AEN'), as shown. */
export async function shownBreakdown(table: Locator): Promise<ShownRow[]> {
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('th')?.textContent?.trim() ?? '', ...Array.from(tr.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? '')]),
  );
  return rows.map(([name = '', scope = '', foundation = '', installed = '', commissioned = '', done = '', lastProgress = '']) => ({
    name,
    scope: numberOf(scope) ?? NaN,
    foundationCompleted: numberOf(foundation) ?? NaN,
    machinesInstalled: numberOf(installed) ?? NaN,
    machinesCommissioned: numberOf(commissioned) ?? NaN,
    done,
    lastProgress,
  }));
}

/** The DEN or AEN blocks a phone shows instead of the table (name and the four figures). */
export async function shownPhoneBreakdown(list: Locator): Promise<Array<Figures & { name: string }>> {
  const items = await list.locator(':scope > li').evaluateAll((lis) =>
    lis.map((li) => [li.firstElementChild?.textContent?.trim() ?? '', ...Array.from(li.querySelectorAll('dd')).map((dd) => dd.textContent?.trim() ?? '')]),
  );
  return items.map(([name = '', scope = '', foundation = '', installed = '', commissioned = '']) => ({
    name,
    scope: numberOf(scope) ?? NaN,
    foundationCompleted: numberOf(foundation) ?? NaN,
    machinesInstalled: numberOf(installed) ?? NaN,
    machinesCommissioned: numberOf(commissioned) ?? NaN,
  }));
}

const CARD_LABELS: Record<Figure, string> = {
  scope: 'Scope',
  foundationCompleted: 'Foundation',
  machinesInstalled: 'Installed',
  machinesCommissioned: 'Commissioned',
};

export interface ShownProgress {
  /** The large figure of each card (null for '–'). */
  figures: Record<Figure, number | null>;
  /** The 'Rollout sheet: N' line under a card, null where there is none. */
  sheet: Record<Figure, number | null>;
}

/** The reports landing's Machine Installation Progress cards, as shown. */
export async function shownProgress(card: Locator): Promise<ShownProgress> {
  const shown = await definitionsOf(card.locator('dl'));
  expect(Object.keys(shown)).toEqual(FIGURES.map((f) => CARD_LABELS[f]));
  const figures = {} as Record<Figure, number | null>;
  const sheet = {} as Record<Figure, number | null>;
  for (const f of FIGURES) {
    const [value = '', ...rest] = shown[CARD_LABELS[f]] ?? [];
    figures[f] = numberOf(value);
    const line = rest.find((t) => t.startsWith('Rollout sheet: '));
    sheet[f] = line === undefined ? null : numberOf(line.slice('Rollout sheet: '.length));
  }
  return { figures, sheet };
}

/** What the progress cards must show for an answer of GET /api/machine-progress. */
export function expectedProgress(progress: MachineProgressResponse): ShownProgress {
  const figures = {} as Record<Figure, number | null>;
  const sheet = {} as Record<Figure, number | null>;
  for (const f of FIGURES) {
    figures[f] = progress.summary ? progress.summary[f] : null;
    const counted = progress.fromCurveRecords;
    sheet[f] = counted !== null && (progress.summary === null || progress.summary[f] !== counted[f]) ? counted[f] : null;
  }
  return { figures, sheet };
}

/** Nothing is wider than the screen: the page never scrolls sideways (wide tables scroll in their own box). */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page width').toBeLessThanOrEqual(clientWidth);
}

/** A full-page screenshot into the test's output folder (never the repository). */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const dir = testInfo.outputPath('screenshots');
  await mkdir(dir, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}
