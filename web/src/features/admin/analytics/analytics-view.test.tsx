import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AnalyticsDashboard, ComplianceFigures } from '../../../../../common/schemas/analytics.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { type Handler, jsonResponse, type RecordedRequest } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, client, signedInAdminShell } from '../../../test/users.js';


const compliance = (within: number, onSchedule: number): ComplianceFigures => ({
  onSchedule,
  within,
  overdue: onSchedule - within,
  never: 0,
  share: onSchedule === 0 ? null : within / onSchedule,
});

const OCT = { start: '2026-10-01', end: '2026-10-31' };
const NOV = { start: '2026-11-01', end: '2026-11-23' };
const SCOPE = { division: 'RTM/WR', section: null, sse: null, from: '2026-10-01', to: '2026-11-23', by: 'month' as const };
const ACTIONS = { open: 5, overdue: 2, medianDaysToClose: 3.5, openedInRange: 7, closedInRange: 4 };

const DASHBOARD: AnalyticsDashboard = {
  asOf: '2026-11-23',
  scope: SCOPE,
  cofAlertThreshold: 0.25,
  summary: {
    serviceCompliance: 0.71,
    cofCompliance: 0.64,
    cof: { count: 40, median: 0.21, p90: 0.29, aboveThresholdShare: 0.15 },
    visits: { service: 120, cof: 40 },
    faults: { partBroken: 6, partStolen: 9, machineNotWorking: 3 },
    actions: ACTIONS,
  },
  periods: [OCT, NOV],
  compliance: {
    series: [
      { ...OCT, service: compliance(84, 100), cof: compliance(70, 100) },
      { ...NOV, service: compliance(71, 100), cof: compliance(64, 100) },
    ],
    bySection: [{ divisionRailway: 'RTM/WR', section: 'NAD-UJN', service: compliance(5, 10), cof: compliance(6, 10) }],
    bySse: [{ sse: 'K. Menon', service: compliance(5, 10), cof: compliance(6, 10) }],
  },
  friction: {
    series: [
      { ...OCT, count: 18, median: 0.2, p90: 0.26, aboveThresholdShare: 0.11 },
      { ...NOV, count: 22, median: 0.23, p90: 0.31, aboveThresholdShare: 0.18 },
    ],
    bySection: [{ divisionRailway: 'RTM/WR', section: 'NAD-UJN', count: 12, median: 0.27, p90: 0.33, aboveThresholdShare: 0.5 }],
    rising: [
      {
        divisionRailway: 'RTM/WR',
        section: 'NAD-UJN',
        curveNumber: '12',
        line: 'Up',
        readings: [
          { date: '2026-10-02', value: 0.22 },
          { date: '2026-10-30', value: 0.26 },
          { date: '2026-11-20', value: 0.3 },
        ],
      },
    ],
  },
  machines: {
    series: [
      { ...OCT, partBroken: 2, partStolen: 4, machineNotWorking: 1, serviceVisits: 60, workingRate: 0.9 },
      { ...NOV, partBroken: 4, partStolen: 5, machineNotWorking: 2, serviceVisits: 60, workingRate: 0.85 },
    ],
    parts: [
      { category: 'Pump Assembly', item: 'Gear pump', broken: 1, stolen: 8, count: 9, cumulativeShare: 0.6 },
      { category: 'Nozzle', item: 'Applicator bar', broken: 5, stolen: 1, count: 6, cumulativeShare: 1 },
    ],
    categories: [
      { category: 'Pump Assembly', count: 9, cumulativeShare: 0.6 },
      { category: 'Nozzle', count: 6, cumulativeShare: 1 },
    ],
    actions: ACTIONS,
  },
  grease: {
    series: [
      { ...OCT, count: 60, median: 2.5 },
      { ...NOV, count: 60, median: 1.8 },
    ],
    bySection: [{ divisionRailway: 'RTM/WR', section: 'NAD-UJN', count: 30, median: 1.2 }],
    dry: [{ divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '7', line: 'Down', lastVisits: ['2026-11-05', '2026-11-19'] }],
  },
  fieldWork: {
    technicians: [
      { technicianId: 'TEC2001', name: 'Ravi Kumar Meena', service: 70, cof: 25, series: [{ service: 35, cof: 12 }, { service: 35, cof: 13 }] },
      { technicianId: 'TEC2002', name: 'Sunil Yadav', service: 50, cof: 15, series: [{ service: 25, cof: 7 }, { service: 25, cof: 8 }] },
    ],
  },
};

const EMPTY: AnalyticsDashboard = {
  ...DASHBOARD,
  summary: { ...DASHBOARD.summary, visits: { service: 0, cof: 0 }, actions: { open: 0, overdue: 0, medianDaysToClose: null, openedInRange: 0, closedInRange: 0 } },
  compliance: { series: [], bySection: [], bySse: [] },
};

function signedInAs(user: PublicUser, routes: Record<string, Handler> = {}) {
  return signedInAdminShell(user, {
    'GET /api/analytics/dashboard': () => jsonResponse(200, DASHBOARD),
    'GET /api/reports': () => jsonResponse(200, { reports: [] }),
    ...routes,
  });
}

const location = () => screen.getByTestId('location').textContent ?? '';
const queryOf = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://x').searchParams);
const dashboardRequests = (requests: RecordedRequest[]) => requests.filter((r) => r.url.startsWith('/api/analytics/dashboard?'));
const region = (name: string) => screen.getByRole('region', { name });

async function openAnalytics(path = '/admin?view=analytics&period=custom&from=2026-10-01&to=2026-11-23&by=month') {
  renderApp(path);
  await screen.findByRole('heading', { level: 2, name: 'At a glance' }, { timeout: 20_000 });
}

async function showTable(figure: string) {
  const section = region(figure);
  await userEvent.click(within(section).getByRole('button', { name: 'Show as table' }));
  return within(section).getByRole('table', { name: figure });
}

// The view's chunk (and visx) loads lazily: more than the default 5 s on a busy shared machine.
const SLOW = { timeout: 40_000 };

describe('the Analytics view', SLOW, () => {
  it('is a tile on the reports landing', async () => {
    signedInAs(admin, { 'GET /api/actions/counts': () => jsonResponse(200, { asOf: '2026-11-23', divisions: [] }) });
    renderApp('/admin?view=reports');
    await userEvent.click(await screen.findByRole('button', { name: /Analytics/ }, { timeout: 20_000 }));
    expect(await screen.findByRole('heading', { level: 2, name: 'At a glance' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(location()).toBe('/admin?view=analytics');
  });

  it('shows the headline figures, the charts as images with their text, and the sections', async () => {
    signedInAs(admin);
    await openAnalytics();
    const glance = region('At a glance');
    const tile = (label: string) => within(glance).getByText(label).nextSibling;
    expect(tile('Service compliance')).toHaveTextContent('71%');
    expect(tile('CoF compliance')).toHaveTextContent('64%');
    expect(tile('CoF median')).toHaveTextContent('0.21');
    expect(tile('Readings above 0.25')).toHaveTextContent('15%');
    expect(tile('Part stolen')).toHaveTextContent('9');
    expect(tile('Median days to close')).toHaveTextContent('3.5 d');

    expect(screen.getByText(/1 Oct 2026 to 23 Nov 2026 · RTM\/WR/)).toBeInTheDocument();
    const compliance = region('Share within interval per period');
    expect(within(compliance).getByRole('img', { name: 'Share within interval per period' })).toBeInTheDocument();
    expect(within(compliance).getByText(/Service compliance fell from 84% to 71% over the range/, { selector: 'p' })).toBeInTheDocument();
    expect(within(region('CoF median and 90th percentile per period')).getByText(/The median CoF rose from 0.20 to 0.23/, { selector: 'p' })).toBeInTheDocument();
    expect(within(region('Parts broken or stolen, most first')).getByText(/Pump Assembly – Gear pump leads with 9/, { selector: 'p' })).toBeInTheDocument();
    expect(within(region('Friction')).getByRole('list', { name: 'Curves whose last three readings rise' })).toHaveTextContent('NAD-UJN · Curve 12 · Up 0.22 → 0.26 → 0.30');
    expect(within(region('Grease')).getByRole('list', { name: /stay dry/ })).toHaveTextContent('RTM-NAD · Curve 7 · Down');
    expect(within(region('Machines and parts')).getByRole('link', { name: 'Open Follow-up Actions' })).toHaveAttribute('href', '/admin?view=actions&division=RTM%2FWR');

    expect(within(compliance).getByRole('link', { name: 'Download Excel: Share within interval per period' })).toHaveAttribute(
      'href',
      '/api/analytics/export?chart=compliance&from=2026-10-01&to=2026-11-23&by=month',
    );
  });

  it('shows a chart as a table with the numbers', async () => {
    signedInAs(admin);
    await openAnalytics();
    const table = await showTable('Share within interval per period');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Oct 202684%70%1630');
    expect(rows[2]).toHaveTextContent('Nov 202671%64%2936');
    const technicians = await showTable('Visits per technician');
    expect(within(technicians).getByRole('row', { name: /Ravi Kumar Meena/ })).toHaveTextContent('Ravi Kumar Meena702595');
    const parts = await showTable('Parts broken or stolen, most first');
    expect(within(parts).getByRole('row', { name: /Nozzle/ })).toHaveTextContent('Nozzle – Applicator bar516100%');
    await userEvent.click(within(region('Parts broken or stolen, most first')).getByRole('button', { name: 'Show as chart' }));
    expect(within(region('Parts broken or stolen, most first')).getByRole('img')).toBeInTheDocument();
  });

  it('shows a long ranking by its first ten rows, and all of them on request', async () => {
    const sses = Array.from({ length: 12 }, (_, i) => ({ sse: `SSE ${i + 1}`, service: compliance(i, 12), cof: compliance(i, 12) }));
    signedInAs(admin, { 'GET /api/analytics/dashboard': () => jsonResponse(200, { ...DASHBOARD, compliance: { ...DASHBOARD.compliance, bySse: sses } }) });
    await openAnalytics();
    const table = screen.getByRole('table', { name: 'By SSE at the range’s end, worst first' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    await userEvent.click(screen.getByRole('button', { name: 'Show all 12 rows' }));
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    expect(within(table).getByRole('row', { name: /SSE 12/ })).toHaveTextContent('SSE 1292%92%11');
  });

  it('sends the filters and keeps them in the address', async () => {
    const requests = signedInAs(admin);
    await openAnalytics();
    expect(queryOf(dashboardRequests(requests)[0])).toEqual({ from: '2026-10-01', to: '2026-11-23', by: 'month' });

    await userEvent.selectOptions(screen.getByLabelText('Division/Railway'), 'RTM/WR');
    await userEvent.selectOptions(screen.getByLabelText('Section'), 'NAD-UJN');
    await userEvent.selectOptions(screen.getByLabelText('SSE'), 'A. Rao');
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'By week');
    await waitFor(() =>
      expect(queryOf(dashboardRequests(requests).at(-1))).toEqual({ division: 'RTM/WR', section: 'NAD-UJN', sse: 'A. Rao', from: '2026-10-01', to: '2026-11-23', by: 'week' }),
    );
    expect(location()).toBe('/admin?view=analytics&period=custom&from=2026-10-01&to=2026-11-23&division=RTM%2FWR&section=NAD-UJN&sse=A.+Rao&by=week');

    // A preset counts back from today: 12 months by month.
    await userEvent.selectOptions(screen.getByLabelText('Period'), 'Last 12 months');
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
    await waitFor(() => expect(queryOf(dashboardRequests(requests).at(-1))).toMatchObject({ by: 'month', division: 'RTM/WR' }));
    const { from, to } = queryOf(dashboardRequests(requests).at(-1));
    expect(from && to && from < to).toBe(true);
    expect(location()).toBe('/admin?view=analytics&period=12m&division=RTM%2FWR&section=NAD-UJN&sse=A.+Rao');

    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(location()).toBe('/admin?view=analytics'));
  });

  it("leads an Admin from a figure to the records behind it, with the figure's filters", async () => {
    signedInAs(admin);
    await openAnalytics();
    const table = await showTable('Share within interval per period');
    expect(within(table).getByRole('link', { name: '64%: Open the CoF records of Nov 2026' })).toHaveAttribute(
      'href',
      '/admin?view=records-management&type=CoF&from=2026-11-01&to=2026-11-23&division=RTM%2FWR',
    );
    expect(within(region('Schedule compliance')).getByRole('link', { name: 'Open the Service records of NAD-UJN' })).toHaveAttribute(
      'href',
      '/admin?view=records-management&type=Service&from=2026-10-01&to=2026-11-23&division=RTM%2FWR&section=NAD-UJN',
    );
    // The chart's marks lead there too, for a pointer.
    const chart = within(region('Share within interval per period'));
    await userEvent.click(chart.getByRole('button', { name: 'Show as chart' }));
    const marks = [...chart.getByRole('img').querySelectorAll('[data-href]')].map((mark) => mark.getAttribute('data-href'));
    expect(marks).toContain('/admin?view=records-management&type=Service&from=2026-10-01&to=2026-10-31&division=RTM%2FWR');
    const technicians = await showTable('Visits per technician');
    await userEvent.click(within(technicians).getByRole('link', { name: 'Open the records of Ravi Kumar Meena' }));
    await waitFor(() => expect(location()).toBe('/admin?view=records-management&from=2026-10-01&to=2026-11-23&division=RTM%2FWR&technicianId=TEC2001'));
  });

  it('makes the dashboard into a PDF report job with the filters', async () => {
    const requests = signedInAs(admin, {
      'POST /api/reports/analytics': () => jsonResponse(200, { reportId: 'a0', status: 'done', progress: 100, recordCount: 160, pdfUrl: '/api/reports/download/a0' }),
    });
    await openAnalytics('/admin?view=analytics&period=custom&from=2026-10-01&to=2026-11-23&by=month&section=NAD-UJN');
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('PDF report ready')).toBeInTheDocument();
    const post = requests.find((r) => r.method === 'POST' && r.url === '/api/reports/analytics');
    expect(JSON.parse(String(post?.body))).toEqual({ section: 'NAD-UJN', from: '2026-10-01', to: '2026-11-23', by: 'month' });
  });

  it('follows the PDF job with a progress bar until it is done', async () => {
    let reads = 0;
    const requests = signedInAs(admin, {
      'POST /api/reports/analytics': () => jsonResponse(202, { reportId: 'a1', status: 'queued', progress: 0, recordCount: 160, pdfUrl: '/api/reports/download/a1' }),
      'GET /api/reports/a1': () => {
        reads += 1;
        return jsonResponse(200, {
          reportId: 'a1',
          kind: 'analytics-pdf',
          status: reads > 1 ? 'done' : 'running',
          progress: reads > 1 ? 100 : 40,
          recordCount: 160,
          error: null,
          downloadUrl: '/api/reports/download/a1',
          fileSizeBytes: 2048,
          createdAt: '2026-11-23T06:30:00.000Z',
          expiresAt: '2026-11-30T06:30:00.000Z',
          params: {},
          division: null,
          summary: null,
          fileName: null,
        });
      },
    });
    await openAnalytics('/admin?view=analytics&period=custom&from=2026-10-01&to=2026-11-23&by=month&section=NAD-UJN');
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByRole('progressbar')).toBeInTheDocument();
    expect(await screen.findByText('PDF report ready', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/reports/a1')).toBe(true);
  });

  it('says so when the range holds nothing, and shows a failed request with Try Again', async () => {
    let answer: Response = jsonResponse(200, EMPTY);
    signedInAs(admin, { 'GET /api/analytics/dashboard': () => answer });
    renderApp('/admin?view=analytics');
    expect(await screen.findByText(/No records in this range/, {}, { timeout: 20_000 })).toBeInTheDocument();

    answer = jsonResponse(500, { code: 'INTERNAL', message: 'Database unavailable', requestId: 'r1' });
    await userEvent.selectOptions(screen.getByLabelText('Period'), 'Last 3 months');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the figures: Database unavailable');
    answer = jsonResponse(200, DASHBOARD);
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'At a glance' })).toBeInTheDocument();
  });
});

describe('for a Client', SLOW, () => {
  it('asks for their division, shows it fixed, and links no figure to the records', async () => {
    const requests = signedInAs(client);
    await openAnalytics('/admin?view=analytics&division=FZR%2FNR&period=custom&from=2026-10-01&to=2026-11-23&by=month');
    expect(screen.queryByLabelText('Division/Railway')).not.toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Filters' })).toHaveTextContent('RTM/WR');
    expect(queryOf(dashboardRequests(requests)[0])).toMatchObject({ division: 'RTM/WR' });
    await showTable('Share within interval per period');
    await showTable('Visits per technician');
    expect(screen.queryByRole('link', { name: /^Open the .*records/ })).not.toBeInTheDocument();
    expect(document.querySelector('a[href*="records-management"], [data-href]')).toBeNull();
  });
});
