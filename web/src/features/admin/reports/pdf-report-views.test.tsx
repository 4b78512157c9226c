import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import type { ReportSummary } from '../../../../../common/schemas/reports.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, client, storeUser } from '../../../test/users.js';
import { sseChoices } from './reports-api.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

/** Polls come every 700 ms: a report polled twice is done after about 1.5 s. */
const POLLED = { timeout: 4000 };

function signedInAs(user: PublicUser, routes: Record<string, Handler> = {}) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'GET /api/reports': () => jsonResponse(200, { reports: [] }),
    'GET /api/technicians': () =>
      jsonResponse(200, {
        technicians: [
          { employeeId: 'TECH001', name: 'Ravi Kumar' },
          { employeeId: 'TECH002', name: 'Sunil Rao' },
        ],
      }),
    'GET /api/register-filters': () => jsonResponse(200, { sections: [], sses: [] }),
    ...routes,
  });
}

function summary(overrides: Partial<ReportSummary>): ReportSummary {
  return {
    reportId: 'r1',
    kind: 'inspection-pdf',
    params: {},
    division: 'RTM/WR',
    status: 'running',
    progress: 0,
    recordCount: 12,
    summary: null,
    error: null,
    fileName: null,
    fileSizeBytes: null,
    downloadUrl: '/api/reports/download/r1',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-08T10:00:00.000Z',
    ...overrides,
  };
}

const job = (status: ReportSummary['status'], progress = 0, recordCount = 12) => ({
  reportId: 'r1',
  status,
  progress,
  recordCount,
  pdfUrl: '/api/reports/download/r1',
});

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const posts = (requests: RecordedRequest[], url: string) => requests.filter((r) => r.method === 'POST' && r.url === url);
const bodyOf = (request: RecordedRequest | undefined): unknown => JSON.parse(request?.body ?? 'null');

async function openView(view: string, heading: string) {
  renderApp(`/admin?view=${view}`);
  // The view's chunk loads lazily: more than the default second on a busy shared machine.
  await screen.findByRole('heading', { level: 2, name: heading }, { timeout: 20_000 });
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

// The lazily loaded views and their polling take longer than the default 5 s on a busy shared machine.
const SLOW = { timeout: 30_000 };

describe('PDF Reports', SLOW, () => {
  it('asks for Division and Service Type with the Missing Required Fields toast and sends nothing', async () => {
    const requests = signedInAs(admin);
    await openView('inspection-reports', 'PDF Reports');
    const division = screen.getByLabelText('Division');
    expect(division).toHaveValue('');
    expect([...(division as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Select division',
      'All divisions',
      'RTM/WR',
      'FZR/NR',
      'BRC/WR',
      'NDLS/NR',
      'JBP/WCR',
    ]);
    const type = screen.getByLabelText('Service Type') as HTMLSelectElement;
    expect([...type.options].map((o) => o.textContent)).toEqual(['Select service type', 'Service', 'CoF']);

    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(notifications().getByText('Missing Required Fields')).toBeInTheDocument();
    expect(notifications().getByText('Please select both Division and Service Type to generate a report.')).toBeInTheDocument();

    // A division alone is not enough either.
    await userEvent.selectOptions(division, 'FZR/NR');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(notifications().getByText('Missing Required Fields')).toBeInTheDocument();
    expect(posts(requests, '/api/reports/generate')).toHaveLength(0);
  });

  it('shows the progress while the report is made, then Report Generated and the download', async () => {
    const secondPoll = deferred<Response>();
    let polls = 0;
    const requests = signedInAs(admin, {
      'POST /api/reports/generate': () => jsonResponse(202, job('queued', 0, 12)),
      'GET /api/reports/r1': () => {
        polls += 1;
        return polls === 1 ? jsonResponse(200, summary({ status: 'running', progress: 40 })) : secondPoll.promise;
      },
    });
    await openView('inspection-reports', 'PDF Reports');
    await userEvent.selectOptions(screen.getByLabelText('Division'), 'all');
    await userEvent.selectOptions(screen.getByLabelText('Service Type'), 'Service');
    await userEvent.type(screen.getByLabelText('From date'), '2026-02-01');
    await userEvent.type(screen.getByLabelText('To date'), '2026-02-28');
    await screen.findByRole('option', { name: 'Sunil Rao (TECH002)' });
    await userEvent.selectOptions(screen.getByLabelText('Technician'), 'TECH002');
    await userEvent.selectOptions(screen.getByLabelText('Order'), 'By curve');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));

    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    const [post] = posts(requests, '/api/reports/generate');
    expect(bodyOf(post)).toEqual({
      type: 'Service',
      division: 'all',
      fromDate: '2026-02-01',
      toDate: '2026-02-28',
      technicianId: 'TECH002',
      format: 'images',
      order: 'curve',
    });
    expect(post?.headers.get('Prefer')).toBe('respond-async');

    // The first poll says 40%: the bar and the words show it while the second poll is pending.
    const bar = await screen.findByRole('progressbar', {}, POLLED);
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'), POLLED);
    expect(screen.getByText('Making the report: 40%')).toBeInTheDocument();
    expect(clickedLinks).toHaveLength(0);

    secondPoll.resolve(jsonResponse(200, summary({ status: 'done', progress: 100, fileName: 'Inspection_Report_2026-03-01.pdf' })));
    expect(await notifications().findByText('Report Generated', {}, POLLED)).toBeInTheDocument();
    expect(notifications().getByText('with 12 records')).toBeInTheDocument();
    expect(clickedLinks).toEqual([{ href: '/api/reports/download/r1', download: true }]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Report' })).toBeEnabled();
    // The PDF is never fetched into memory: the browser's download manager fetches the link.
    expect(requests.some((r) => r.url.startsWith('/api/reports/download/'))).toBe(false);
    expect(screen.getByRole('link', { name: 'Download again' })).toHaveAttribute('href', '/api/reports/download/r1');
    // The recent list is asked again, to show the new report.
    await waitFor(() => expect(requests.filter((r) => r.url === '/api/reports?kind=inspection-pdf&limit=10')).toHaveLength(2));
  });

  it("shows the Error toast with the server's reason when the report fails", async () => {
    signedInAs(admin, {
      'POST /api/reports/generate': () => jsonResponse(202, job('queued')),
      'GET /api/reports/r1': () => jsonResponse(200, summary({ status: 'failed', progress: 30, error: 'The photo store is not reachable' })),
    });
    await openView('inspection-reports', 'PDF Reports');
    await userEvent.selectOptions(screen.getByLabelText('Division'), 'RTM/WR');
    await userEvent.selectOptions(screen.getByLabelText('Service Type'), 'CoF');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));

    expect(await notifications().findByText('The photo store is not reachable', {}, POLLED)).toBeInTheDocument();
    expect(notifications().getByText('Error')).toBeInTheDocument();
    expect(clickedLinks).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Generate Report' })).toBeEnabled();
  });

  it.each([
    ['the server refuses with a message', jsonResponse(404, { code: 'NO_RECORDS', message: 'No records match the selected filters' }), 'No records match the selected filters'],
    [
      'a field is not valid',
      jsonResponse(400, { code: 'VALIDATION_FAILED', message: 'The request is not valid', fields: { toDate: 'toDate must be on or after fromDate' } }),
      'toDate must be on or after fromDate',
    ],
    ['the answer says nothing', new Response('', { status: 500 }), 'Failed to generate report'],
    [
      'the user has too many reports being made',
      jsonResponse(429, { code: 'TOO_MANY_REPORT_JOBS', message: 'You have 5 reports still being made. Please wait for one of them to finish, then ask again' }),
      'You have 5 reports still being made. Please wait for one of them to finish, then ask again',
    ],
  ])('shows the Error toast when %s', async (_case, answer, message) => {
    signedInAs(admin, { 'POST /api/reports/generate': () => answer });
    await openView('inspection-reports', 'PDF Reports');
    await userEvent.selectOptions(screen.getByLabelText('Division'), 'RTM/WR');
    await userEvent.selectOptions(screen.getByLabelText('Service Type'), 'Service');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await notifications().findByText(message)).toBeInTheDocument();
    expect(notifications().getByText('Error')).toBeInTheDocument();
  });

  it("keeps a Client to their division, locked, and sends it", async () => {
    const requests = signedInAs(client, { 'POST /api/reports/generate': () => jsonResponse(200, job('done', 100, 3)) });
    await openView('inspection-reports', 'PDF Reports');
    const division = screen.getByLabelText('Division');
    expect(division).toBeDisabled();
    expect(division).toHaveValue('RTM/WR');
    await userEvent.selectOptions(screen.getByLabelText('Service Type'), 'CoF');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));

    expect(await notifications().findByText('with 3 records')).toBeInTheDocument();
    expect(bodyOf(posts(requests, '/api/reports/generate')[0])).toEqual({ type: 'CoF', division: 'RTM/WR', format: 'images', order: 'newest' });
    // Made at once (200 done): no polling, straight to the download.
    expect(requests.some((r) => r.url === '/api/reports/r1')).toBe(false);
    expect(clickedLinks).toEqual([{ href: '/api/reports/download/r1', download: true }]);
  });

  it('stops polling when the view is left', async () => {
    const poll = deferred<Response>();
    const requests = signedInAs(admin, {
      'POST /api/reports/generate': () => jsonResponse(202, job('running', 10)),
      'GET /api/reports/r1': () => poll.promise,
    });
    const signals: (AbortSignal | null | undefined)[] = [];
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
      signals.push(init?.signal);
      return stubbed(input, init);
    });
    await openView('inspection-reports', 'PDF Reports');
    await userEvent.selectOptions(screen.getByLabelText('Division'), 'RTM/WR');
    await userEvent.selectOptions(screen.getByLabelText('Service Type'), 'Service');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/reports/r1')).toBe(true), POLLED);
    const pollSignal = signals[requests.findIndex((r) => r.url === '/api/reports/r1')];

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { level: 2, name: 'Reports & Analytics' });
    await waitFor(() => expect(pollSignal?.aborted).toBe(true));
    // The answer that was on its way when the view was left changes nothing.
    const late = jsonResponse(200, summary({ status: 'done', progress: 100 }));
    const read = vi.spyOn(late, 'json');
    poll.resolve(late);
    await waitFor(() => expect(read).toHaveBeenCalled());
    await screen.findByRole('heading', { level: 2, name: 'Reports & Analytics' });
    expect(notifications().queryByText('Report Generated')).not.toBeInTheDocument();
    expect(clickedLinks).toHaveLength(0);
    expect(requests.filter((r) => r.url === '/api/reports/r1')).toHaveLength(1);
  });

  it('lists the recent PDF reports with a plain download link', async () => {
    signedInAs(admin, {
      'GET /api/reports': () =>
        jsonResponse(200, {
          reports: [
            summary({
              status: 'done',
              progress: 100,
              params: { division: 'RTM/WR', type: 'CoF', fromDate: '2026-02-01', toDate: '2026-02-28' },
              fileName: 'Inspection_Report_RTM-WR_2026-03-01.pdf',
              fileSizeBytes: 5 * 1024 * 1024,
            }),
            summary({ reportId: 'r2', status: 'running', progress: 50 }),
          ],
        }),
    });
    await openView('inspection-reports', 'PDF Reports');
    const list = await screen.findByRole('list', { name: 'Your recent reports' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('RTM/WR, CoF, all technicians, 2026-02-01 to 2026-02-28');
    expect(rows[0]).toHaveTextContent('12 records, 5.0 MB');
    expect(within(list).getByRole('link', { name: 'Download Inspection_Report_RTM-WR_2026-03-01.pdf' })).toHaveAttribute(
      'href',
      '/api/reports/download/r1',
    );
  });
});

describe('SSE CoF Measurement', SLOW, () => {
  it('lists the SSEs without the placeholder SSE, sorted, and sends the chosen one', async () => {
    const requests = signedInAs(admin, {
      'GET /api/register-filters': () => jsonResponse(200, { sections: [], sses: ['Zeta Rao', 'SSE', 'amit Shah', 'Bina Patel'] }),
      'POST /api/reports/sse-table': () => jsonResponse(202, job('queued', 0, 7)),
      'GET /api/reports/r1': () => jsonResponse(200, summary({ kind: 'sse-cof-pdf', status: 'done', progress: 100, recordCount: 7 })),
    });
    await openView('sse-reports', 'SSE CoF Measurement');
    expect(screen.getByLabelText('Division')).toHaveValue('all');
    const sse = screen.getByLabelText('SSE') as HTMLSelectElement;
    await within(sse).findByRole('option', { name: 'Zeta Rao' });
    expect([...sse.options].map((o) => o.textContent)).toEqual(['All SSEs', 'amit Shah', 'Bina Patel', 'Zeta Rao']);

    await userEvent.selectOptions(screen.getByLabelText('Division'), 'BRC/WR');
    await waitFor(() => expect(requests.some((r) => r.url === '/api/register-filters?division=BRC%2FWR')).toBe(true));
    await userEvent.selectOptions(sse, 'Bina Patel');
    await userEvent.click(screen.getByRole('button', { name: 'Generate SSE Report' }));

    expect(await notifications().findByText('SSE Report Generated', {}, POLLED)).toBeInTheDocument();
    expect(notifications().getByText('Report contains 7 CoF measurements')).toBeInTheDocument();
    const [post] = posts(requests, '/api/reports/sse-table');
    expect(bodyOf(post)).toEqual({ division: 'BRC/WR', sseEngineer: 'Bina Patel' });
    expect(post?.headers.get('Prefer')).toBe('respond-async');
    expect(clickedLinks).toEqual([{ href: '/api/reports/download/r1', download: true }]);
  });

  it('keeps a Client to their division and asks for its SSEs', async () => {
    const requests = signedInAs(client, { 'POST /api/reports/sse-table': () => jsonResponse(404, { code: 'NO_RECORDS', message: 'No records match the selected filters' }) });
    await openView('sse-reports', 'SSE CoF Measurement');
    expect(screen.getByLabelText('Division')).toBeDisabled();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/register-filters?division=RTM%2FWR')).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Generate SSE Report' }));
    expect(await notifications().findByText('No records match the selected filters')).toBeInTheDocument();
    expect(bodyOf(posts(requests, '/api/reports/sse-table')[0])).toEqual({ division: 'RTM/WR' });
  });

  it('shows the SSE failure text when the server gives no reason', async () => {
    signedInAs(admin, { 'POST /api/reports/sse-table': () => new Response('<html>Bad gateway</html>', { status: 502 }) });
    await openView('sse-reports', 'SSE CoF Measurement');
    await userEvent.click(screen.getByRole('button', { name: 'Generate SSE Report' }));
    expect(await notifications().findByText('Failed to generate SSE report')).toBeInTheDocument();
  });
});

describe('Service Reports', SLOW, () => {
  it('asks for the job answer (Prefer: respond-async) with technician, SSE and dates, then Service Report Generated', async () => {
    const requests = signedInAs(admin, {
      'GET /api/register-filters': () => jsonResponse(200, { sections: [], sses: ['SSE', 'K. Menon'] }),
      'POST /api/reports/service-table': () => jsonResponse(200, job('done', 100, 42)),
    });
    await openView('service-reports', 'Service Reports');
    await screen.findByRole('option', { name: 'Ravi Kumar (TECH001)' });
    await userEvent.selectOptions(screen.getByLabelText('Technician'), 'TECH001');
    await within(screen.getByLabelText('SSE')).findByRole('option', { name: 'K. Menon' });
    expect(within(screen.getByLabelText('SSE')).queryByRole('option', { name: 'SSE' })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('SSE'), 'K. Menon');
    await userEvent.type(screen.getByLabelText('From date'), '2026-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Service Report' }));

    expect(await notifications().findByText('Service Report Generated')).toBeInTheDocument();
    expect(notifications().getByText('Report contains 42 service records')).toBeInTheDocument();
    const [post] = posts(requests, '/api/reports/service-table');
    expect(post?.headers.get('Prefer')).toBe('respond-async');
    expect(bodyOf(post)).toEqual({ division: 'all', technician: 'TECH001', sseEngineer: 'K. Menon', fromDate: '2026-01-01' });
    expect(clickedLinks).toEqual([{ href: '/api/reports/download/r1', download: true }]);
  });

  it('refuses a To date before the From date without asking the server', async () => {
    const requests = signedInAs(admin);
    await openView('service-reports', 'Service Reports');
    await userEvent.type(screen.getByLabelText('From date'), '2026-02-10');
    await userEvent.type(screen.getByLabelText('To date'), '2026-02-01');
    expect(screen.getByText('To date must be on or after From date')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate Service Report' }));
    expect(posts(requests, '/api/reports/service-table')).toHaveLength(0);
  });

  it('shows the service failure text when the server gives no reason', async () => {
    signedInAs(admin, { 'POST /api/reports/service-table': () => new Response('', { status: 500 }) });
    await openView('service-reports', 'Service Reports');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Service Report' }));
    expect(await notifications().findByText('Failed to generate service report')).toBeInTheDocument();
  });
});

describe('sseChoices', () => {
  it("leaves out the placeholder 'SSE', blanks and repeats, and sorts by name", () => {
    expect(sseChoices(['SSE/RTM North', 'SSE', '', 'anil', 'Bhavna', 'anil', ' SSE '])).toEqual(['anil', 'Bhavna', 'SSE/RTM North']);
  });
});
