import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import type { LastProgress, MachineBreakdownRow, MachineStatsResponse, MachineTotals } from '../../../../common/schemas/machines.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { admin, storeUser } from '../../test/users.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

const NO_DATES: LastProgress = { foundation: null, installed: null, commissioned: null };

const totals = (scope: number, foundationCompleted: number, machinesInstalled: number, machinesCommissioned: number): MachineTotals => ({
  scope,
  curveCount: scope,
  foundationCompleted,
  machinesInstalled,
  machinesCommissioned,
});

const row = (name: string | null, den: string | null, t: MachineTotals, lastProgress: LastProgress = NO_DATES): MachineBreakdownRow => ({
  name,
  den,
  totals: t,
  lastProgress,
});

/** Every DEN: 1,250 curves; the rows add up to the totals. */
const ALL_STATS: MachineStatsResponse = {
  totals: totals(1250, 900, 600, 3),
  lastProgress: { foundation: '2025-06-15', installed: '2025-06-16', commissioned: '2025-04-20' },
  breakdown: {
    level: 'DEN',
    rows: [
      row('DEN/SHARED', 'DEN/SHARED', totals(240, 195, 100, 0), { foundation: '2025-06-15', installed: '2025-06-16', commissioned: null }),
      row('Sr.DEN/RTM', 'Sr.DEN/RTM', totals(1000, 700, 500, 3), { foundation: '2025-03-14', installed: '2025-04-02', commissioned: '2025-04-20' }),
      row(null, null, totals(10, 5, 0, 0)),
    ],
  },
};

/** The AENs under Sr.DEN/RTM. */
const RTM_STATS: MachineStatsResponse = {
  totals: totals(1000, 700, 500, 3),
  lastProgress: { foundation: '2025-03-14', installed: '2025-04-02', commissioned: '2025-04-20' },
  breakdown: {
    level: 'AEN',
    rows: [row('AEN/NAD', 'Sr.DEN/RTM', totals(600, 450, 300, 3)), row('AEN/RTM', 'Sr.DEN/RTM', totals(400, 250, 200, 0))],
  },
};

const ONE_AEN_STATS = (t: MachineTotals, level: 'DEN' | 'AEN'): MachineStatsResponse => ({
  totals: t,
  lastProgress: NO_DATES,
  breakdown: { level, rows: [row(level === 'DEN' ? 'DEN/SHARED' : 'AEN/NAD', 'DEN/SHARED', t)] },
});

const ZERO_STATS: MachineStatsResponse = { totals: totals(0, 0, 0, 0), lastProgress: NO_DATES, breakdown: { level: 'DEN', rows: [] } };

const params = (request: RecordedRequest) => new URL(request.url, 'http://localhost').searchParams;

/** The server's answers by DEN and AEN, as the real API narrows them. */
const filtersAnswer: Handler = (request) =>
  params(request).get('den') === 'Sr.DEN/RTM'
    ? jsonResponse(200, { dens: ['DEN/SHARED', 'Sr.DEN/RTM'], aens: ['AEN/NAD', 'AEN/RTM'] })
    : jsonResponse(200, { dens: ['DEN/SHARED', 'Sr.DEN/RTM'], aens: ['AEN/NAD', 'AEN/RTM', 'AEN/S1', 'AEN/S2'] });

const statsAnswer: Handler = (request) => {
  const den = params(request).get('den');
  const aen = params(request).get('aen');
  if (den === 'Sr.DEN/RTM' && aen === 'AEN/NAD') return jsonResponse(200, ONE_AEN_STATS(totals(600, 450, 300, 3), 'AEN'));
  if (den === 'Sr.DEN/RTM') return jsonResponse(200, RTM_STATS);
  if (aen === 'AEN/S1') return jsonResponse(200, ONE_AEN_STATS(totals(20, 20, 10, 0), 'DEN'));
  return jsonResponse(200, ALL_STATS);
};

function signedInAs(user: PublicUser, routes: Record<string, Handler> = {}) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'GET /api/machine-filters': filtersAnswer,
    'GET /api/machine-stats': statsAnswer,
    ...routes,
  });
}

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const location = () => screen.getByTestId('location');
const urlsOf = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'GET' && r.url.split('?')[0] === path).map((r) => r.url);
const optionTexts = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.textContent);
const denSelect = () => screen.getByLabelText('DEN');
const aenSelect = () => screen.getByLabelText('AEN');

/** The texts of one total: its figure, then its share of the scope where it has one. */
const totalTexts = (label: string) => {
  const figure = within(screen.getByLabelText('Totals')).getByText(label, { selector: 'dt' }).parentElement as HTMLElement;
  return [...figure.querySelectorAll('dd')].map((dd) => dd.textContent);
};

/** The rows of a breakdown table, each as the texts of its cells. */
const tableRows = (region: HTMLElement) =>
  within(region)
    .getAllByRole('row')
    .slice(1)
    .map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent));

async function openDashboard() {
  renderApp('/machine-dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Machine Dashboard' });
  // The totals are in once the scope reads as a figure.
  await screen.findByLabelText('Totals');
}

/** The links the app clicked to start a download: jsdom cannot navigate, so the click is caught. */
let clickedLinks: { href: string; download: boolean }[] = [];
beforeEach(() => {
  clickedLinks = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clickedLinks.push({ href: this.getAttribute('href') ?? '', download: this.hasAttribute('download') });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('machine dashboard filters and totals', () => {
  it('fills the DEN and AEN lists from GET /api/machine-filters and shows the four totals with their share of the scope', async () => {
    const requests = signedInAs(admin);
    await openDashboard();
    await waitFor(() => expect(optionTexts(denSelect())).toEqual(['All DENs', 'DEN/SHARED', 'Sr.DEN/RTM']));
    expect(denSelect()).toHaveValue('all');
    expect(optionTexts(aenSelect())).toEqual(['All AENs', 'AEN/NAD', 'AEN/RTM', 'AEN/S1', 'AEN/S2']);
    expect(aenSelect()).toHaveValue('all');

    expect(totalTexts('Scope (curves)')).toEqual(['1,250']);
    expect(totalTexts('Foundation completed')).toEqual(['900', '72% of scope']);
    expect(totalTexts('Machines installed')).toEqual(['600', '48% of scope']);
    // 3 of 1,250 is a quarter of a percent: a few, not "0%".
    expect(totalTexts('Machines commissioned')).toEqual(['3', '<1% of scope']);

    // No filter chosen: neither call names one.
    expect(urlsOf(requests, '/api/machine-filters')).toEqual(['/api/machine-filters']);
    expect(urlsOf(requests, '/api/machine-stats')).toEqual(['/api/machine-stats']);
  });

  it('sends ?den= to both calls when a DEN is chosen, resets the AEN, and shows the AENs under it', async () => {
    const requests = signedInAs(admin);
    await openDashboard();
    await screen.findByRole('option', { name: 'AEN/S1' });

    await userEvent.selectOptions(aenSelect(), 'AEN/S1');
    await waitFor(() => expect(urlsOf(requests, '/api/machine-stats')).toContain('/api/machine-stats?aen=AEN%2FS1'));
    await waitFor(() => expect(totalTexts('Scope (curves)')).toEqual(['20']));

    await userEvent.selectOptions(denSelect(), 'Sr.DEN/RTM');
    expect(aenSelect()).toHaveValue('all');
    const region = await screen.findByRole('region', { name: 'AENs under Sr.DEN/RTM' });
    expect(within(region).getByRole('table', { name: 'Rollout by AEN' })).toBeInTheDocument();
    expect(tableRows(region)).toEqual([
      ['AEN/NAD', '600', '450', '300', '3', '<1%', '–'],
      ['AEN/RTM', '400', '250', '200', '0', '0%', '–'],
    ]);
    expect(totalTexts('Scope (curves)')).toEqual(['1,000']);
    expect(urlsOf(requests, '/api/machine-filters')).toContain('/api/machine-filters?den=Sr.DEN%2FRTM');
    expect(urlsOf(requests, '/api/machine-stats')).toContain('/api/machine-stats?den=Sr.DEN%2FRTM');
    // The AEN chosen before is not carried into the new DEN.
    expect(urlsOf(requests, '/api/machine-stats').filter((u) => u.includes('den=') && u.includes('aen='))).toEqual([]);
    // The AEN list narrows to the DEN.
    await waitFor(() => expect(optionTexts(aenSelect())).toEqual(['All AENs', 'AEN/NAD', 'AEN/RTM']));

    await userEvent.selectOptions(aenSelect(), 'AEN/NAD');
    await waitFor(() => expect(urlsOf(requests, '/api/machine-stats')).toContain('/api/machine-stats?den=Sr.DEN%2FRTM&aen=AEN%2FNAD'));
    await waitFor(() => expect(totalTexts('Scope (curves)')).toEqual(['600']));
  });

  it("picks a DEN from the 'By DEN' table; a row without a DEN is 'Not assigned' and cannot be picked", async () => {
    const requests = signedInAs(admin);
    await openDashboard();
    const byDen = await screen.findByRole('region', { name: 'By DEN' });
    const table = within(byDen).getByRole('table', { name: 'Rollout by DEN' });
    // The phone's list (shown instead of the table on a narrow screen) holds the same DENs.
    const phoneList = within(byDen).getByRole('list', { name: 'Rollout by DEN' });
    expect(within(phoneList).getAllByRole('listitem').map((item) => item.firstElementChild?.textContent)).toEqual(['DEN/SHARED', 'Sr.DEN/RTM', 'Not assigned']);
    expect(tableRows(byDen)).toEqual([
      ['DEN/SHARED', '240', '195', '100', '0', '0%', '16 Jun 2025'],
      ['Sr.DEN/RTM', '1,000', '700', '500', '3', '<1%', '20 Apr 2025'],
      ['Not assigned', '10', '5', '0', '0', '0%', '–'],
    ]);
    expect(within(byDen).queryByRole('button', { name: 'Not assigned' })).not.toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Sr.DEN/RTM' }));
    expect(denSelect()).toHaveValue('Sr.DEN/RTM');
    expect(await screen.findByRole('region', { name: 'AENs under Sr.DEN/RTM' })).toBeInTheDocument();
    expect(urlsOf(requests, '/api/machine-stats')).toContain('/api/machine-stats?den=Sr.DEN%2FRTM');
    expect(urlsOf(requests, '/api/machine-filters')).toContain('/api/machine-filters?den=Sr.DEN%2FRTM');
    // AENs are not DENs: they are not buttons that would pick a DEN.
    expect(within(screen.getByRole('region', { name: 'AENs under Sr.DEN/RTM' })).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows in the funnel how many curves wait at each stage, computed from the totals', async () => {
    signedInAs(admin);
    await openDashboard();
    const funnel = await screen.findByRole('list', { name: 'Rollout funnel' });
    const stages = within(funnel).getAllByRole('listitem');
    expect(stages).toHaveLength(4);
    expect(stages[0]).toHaveTextContent(/^Curves in scope1,250100%$/);
    expect(stages[1]).toHaveTextContent('↓ 350 waiting for a foundation');
    expect(stages[1]).toHaveTextContent('Foundation completed90072%');
    expect(stages[1]).toHaveTextContent('Last on 15 Jun 2025');
    expect(stages[2]).toHaveTextContent('↓ 300 foundations without a machine');
    expect(stages[2]).toHaveTextContent('Last on 16 Jun 2025');
    expect(stages[3]).toHaveTextContent('↓ 597 machines not commissioned');
    expect(stages[3]).toHaveTextContent('Machines commissioned3<1%');
    expect(stages[3]).toHaveTextContent('Last on 20 Apr 2025');
  });

  it("says 'No curves in the rollout match these filters.' for a zero scope, with no funnel, table or NaN", async () => {
    signedInAs(admin, { 'GET /api/machine-stats': () => jsonResponse(200, ZERO_STATS) });
    await openDashboard();
    expect(await screen.findByText('No curves in the rollout match these filters.')).toBeInTheDocument();
    expect(totalTexts('Scope (curves)')).toEqual(['0']);
    // No share of nothing: the percentage line is left out.
    expect(totalTexts('Foundation completed')).toEqual(['0']);
    expect(screen.queryByRole('list', { name: 'Rollout funnel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'By DEN' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('NaN');
  });

  it('shows the server message when the figures fail, and Try Again asks again', async () => {
    let calls = 0;
    signedInAs(admin, {
      'GET /api/machine-stats': () => {
        calls += 1;
        return calls === 1 ? jsonResponse(503, { code: 'UNAVAILABLE', message: 'The database is not reachable' }) : jsonResponse(200, ALL_STATS);
      },
    });
    renderApp('/machine-dashboard');
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is not reachable');
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(totalTexts('Scope (curves)')).toEqual(['1,250']));
  });

  it('never titles the previous DEN\'s AENs with the newly chosen DEN while its figures are on their way', async () => {
    const shared = deferred<Response>();
    signedInAs(admin, {
      'GET /api/machine-stats': (request) => (params(request).get('den') === 'DEN/SHARED' ? shared.promise : statsAnswer(request)),
    });
    await openDashboard();
    await userEvent.selectOptions(denSelect(), 'Sr.DEN/RTM');
    await screen.findByRole('region', { name: 'AENs under Sr.DEN/RTM' });

    await userEvent.selectOptions(denSelect(), 'DEN/SHARED');
    expect(denSelect()).toHaveValue('DEN/SHARED');
    // The AENs of Sr.DEN/RTM may stay on screen until the answer comes, but not under the title
    // "AENs under DEN/SHARED": AEN/NAD and AEN/RTM are not under DEN/SHARED.
    expect(screen.queryByRole('region', { name: 'AENs under DEN/SHARED' })?.textContent ?? '').not.toContain('AEN/NAD');

    const sharedTotals = totals(240, 195, 100, 0);
    shared.resolve(
      jsonResponse(200, { totals: sharedTotals, lastProgress: NO_DATES, breakdown: { level: 'AEN', rows: [row('AEN/S1', 'DEN/SHARED', sharedTotals)] } }),
    );
    const region = await screen.findByRole('region', { name: 'AENs under DEN/SHARED' });
    await waitFor(() => expect(tableRows(region)).toEqual([['AEN/S1', '240', '195', '100', '0', '0%', '–']]));
  });
  it('never filters by an AEN the AEN select does not show (an AEN picked from the previous DEN\'s list)', async () => {
    const sharedAens = deferred<Response>();
    const requests = signedInAs(admin, {
      'GET /api/machine-filters': (request) => (params(request).get('den') === 'DEN/SHARED' ? sharedAens.promise : filtersAnswer(request)),
      'GET /api/machine-stats': (request) =>
        params(request).get('aen') === 'AEN/NAD' && params(request).get('den') === 'DEN/SHARED' ? jsonResponse(200, ZERO_STATS) : statsAnswer(request),
    });
    await openDashboard();
    await screen.findByRole('option', { name: 'AEN/NAD' });
    await userEvent.selectOptions(denSelect(), 'DEN/SHARED');
    // The AENs of DEN/SHARED are still on their way: the list on screen is the previous one.
    await waitFor(() => expect(urlsOf(requests, '/api/machine-filters')).toContain('/api/machine-filters?den=DEN%2FSHARED'));
    if (within(aenSelect()).queryByRole('option', { name: 'AEN/NAD' })) await userEvent.selectOptions(aenSelect(), 'AEN/NAD');

    sharedAens.resolve(jsonResponse(200, { dens: ['DEN/SHARED', 'Sr.DEN/RTM'], aens: ['AEN/S1', 'AEN/S2'] }));
    await waitFor(() => expect(optionTexts(aenSelect())).toEqual(['All AENs', 'AEN/S1', 'AEN/S2']));
    // What the select shows is what the figures are filtered by.
    const shown = (aenSelect() as HTMLSelectElement).value;
    await waitFor(() => {
      const last = urlsOf(requests, '/api/machine-stats').at(-1) ?? '';
      expect(new URL(last, 'http://localhost').searchParams.get('aen') ?? 'all').toBe(shown);
    }, { timeout: 2000 });
  });
});

describe('machine report', () => {
  it("asks GET /api/machine-report with the chosen DEN and AEN, starts the download of the file and toasts 'Report Generated'", async () => {
    const answer = deferred<Response>();
    const requests = signedInAs(admin, { 'GET /api/machine-report': () => answer.promise });
    await openDashboard();
    await userEvent.selectOptions(denSelect(), 'Sr.DEN/RTM');
    await screen.findByRole('region', { name: 'AENs under Sr.DEN/RTM' });
    await waitFor(() => expect(optionTexts(aenSelect())).toEqual(['All AENs', 'AEN/NAD', 'AEN/RTM']));
    await userEvent.selectOptions(aenSelect(), 'AEN/NAD');

    await userEvent.click(screen.getByRole('button', { name: 'Download Machine Report' }));
    expect(await screen.findByRole('button', { name: 'Preparing report...' })).toBeDisabled();
    expect(urlsOf(requests, '/api/machine-report')).toEqual(['/api/machine-report?den=Sr.DEN%2FRTM&aen=AEN%2FNAD']);
    expect(clickedLinks).toEqual([]);

    answer.resolve(jsonResponse(200, { reportId: 'machine-20250620-1', recordCount: 600 }));
    await waitFor(() => expect(clickedLinks).toEqual([{ href: '/api/download/machine-20250620-1', download: true }]));
    const toast = await notifications().findByRole('status');
    expect(within(toast).getByText('Report Generated')).toBeInTheDocument();
    expect(within(toast).getByText('Machine report with 600 curves')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Machine Report' })).toBeEnabled();
    // The link was only a means to start the download: it is not left in the page.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('asks for every curve without filters, and escapes the report id in the download path', async () => {
    const requests = signedInAs(admin, { 'GET /api/machine-report': () => jsonResponse(200, { reportId: 'machine report/1', recordCount: 1250 }) });
    await openDashboard();
    await userEvent.click(screen.getByRole('button', { name: 'Download Machine Report' }));
    await waitFor(() => expect(clickedLinks).toEqual([{ href: '/api/download/machine%20report%2F1', download: true }]));
    const [url] = urlsOf(requests, '/api/machine-report');
    expect(new URL(url ?? '', 'http://localhost').searchParams.get('den') ?? '').toBe('');
    expect(new URL(url ?? '', 'http://localhost').searchParams.get('aen') ?? '').toBe('');
  });

  it("shows 'Report Error' with the server's message when the report fails, and starts no download", async () => {
    signedInAs(admin, {
      'GET /api/machine-report': () => jsonResponse(500, { code: 'INTERNAL', message: 'The machine report could not be written' }),
    });
    await openDashboard();
    await userEvent.click(screen.getByRole('button', { name: 'Download Machine Report' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Report Error')).toBeInTheDocument();
    expect(within(toast).getByText('The machine report could not be written')).toBeInTheDocument();
    expect(clickedLinks).toEqual([]);
    expect(await screen.findByRole('button', { name: 'Download Machine Report' })).toBeEnabled();
  });

  it.each([
    ['a JSON body without a message', () => jsonResponse(500, { code: 'INTERNAL' })],
    ['an empty body', () => new Response('', { status: 502 })],
    ['an HTML page', () => new Response('<html><body>Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } })],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ] as const)("falls back to 'Failed to generate machine report' for %s", async (_what, answer) => {
    signedInAs(admin, { 'GET /api/machine-report': answer });
    await openDashboard();
    await userEvent.click(screen.getByRole('button', { name: 'Download Machine Report' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Report Error')).toBeInTheDocument();
    expect(within(toast).getByText('Failed to generate machine report')).toBeInTheDocument();
    expect(clickedLinks).toEqual([]);
  });
});

describe('machine dashboard navigation', () => {
  it('goes Back to /admin', async () => {
    signedInAs(admin);
    await openDashboard();
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/admin$/);
  });
});
