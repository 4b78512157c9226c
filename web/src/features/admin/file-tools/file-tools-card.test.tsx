import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FileTask, PhotoProblemRecord } from '../../../../../common/schemas/file-tools.js';
import { submittedText } from '../../../lib/date-text.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, storeUser } from '../../../test/users.js';
import { FILE_TASK_POLL_MS } from './use-file-task.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

const TASK_ID = '3f2a4c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b';
const TASK_URL = `/api/admin/files/tasks/${TASK_ID}`;
const FINISHED_AT = '2026-03-01T10:05:00.000Z';

function asAdmin(routes: Record<string, Handler>) {
  storeUser(admin);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: admin }),
    'GET /api/data-summary': () => jsonResponse(200, { curveRecords: 10, stations: 4, inspectionRecords: 5000 }),
    // Nothing run yet (the card asks on opening).
    'GET /api/admin/files/tasks': () => jsonResponse(200, { tasks: [] }),
    ...routes,
  });
}

function task(overrides: Partial<FileTask>): FileTask {
  return {
    taskId: TASK_ID,
    kind: 'check',
    state: 'running',
    progress: { done: 0, total: 0 },
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: null,
    error: null,
    summary: null,
    ...overrides,
  };
}

const done = (overrides: Partial<FileTask>) => task({ state: 'done', finishedAt: FINISHED_AT, ...overrides });

function problem(i: number): PhotoProblemRecord {
  return {
    recordId: `REC-${String(i).padStart(3, '0')}`,
    problem: i % 4 === 0 ? 'corrupt' : 'missing',
    imageHash: 'a'.repeat(64),
    date: '2026-02-14',
    type: 'Service',
    divisionRailway: 'RTM/WR',
    curveNumber: `C-${i}`,
    technicianName: i === 2 ? null : 'Ravi Kumar',
  };
}
const problems = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => problem(from + k));

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const statusCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.url.startsWith('/api/admin/files/') && r.url !== '/api/admin/files/tasks');

async function openCard() {
  renderApp('/admin?view=data-management');
  await screen.findByRole('heading', { level: 2, name: 'Data Management' });
  return screen.getByRole('region', { name: 'Photo Files' });
}

/** Lets the card's poll timer fire (fake timers that also follow the real clock). */
const nextPoll = () => act(() => vi.advanceTimersByTimeAsync(FILE_TASK_POLL_MS));

/** The rows of the affected records' table, each as the texts of its cells. */
const tableRows = (card: HTMLElement) =>
  within(within(card).getByRole('table', { name: 'Records with a photo problem' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

const figure = async (card: HTMLElement, label: string) => (await within(card).findByText(label, { selector: 'dt' })).nextElementSibling;

describe('photo file tools', () => {
  it('shows a running check with its progress, then the figures and the affected records a page at a time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const poll = deferred<Response>();
    const requests = asAdmin({
      'GET /api/admin/files/status': (request) =>
        request.url.includes('taskId=')
          ? jsonResponse(200, done({ summary: { missing: 20, corrupt: 5, total: 5000, orphans: 3 }, records: { items: problems(21, 25), page: 2, pageSize: 20, total: 25 } }))
          : jsonResponse(202, task({ progress: { done: 1200, total: 5000 } })),
      [`GET ${TASK_URL}`]: () => poll.promise,
    });
    const card = await openCard();
    expect(within(card).getByText(/Check that every record's photo is on the server and intact/)).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Check Files' }));

    // Running: the bar and the words, and no tool can be started meanwhile.
    const bar = await within(card).findByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '24');
    expect(bar).toHaveAttribute('aria-valuetext', 'Checked 1,200 of 5,000 photos');
    expect(within(card).getByText('Checked 1,200 of 5,000 photos')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Checking...' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Restore from Backups' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Recreate Derived Files' })).toBeDisabled();
    expect(within(card).queryByRole('button', { name: 'Check Files' })).not.toBeInTheDocument();

    await nextPoll();
    await waitFor(() => expect(requests.filter((r) => r.url === TASK_URL)).toHaveLength(1));
    poll.resolve(
      jsonResponse(200, done({ summary: { missing: 20, corrupt: 5, total: 5000, orphans: 3 }, records: { items: problems(1, 20), page: 1, pageSize: 20, total: 25 } })),
    );

    expect(await figure(card, 'Records with photos')).toHaveTextContent('5,000');
    expect(await figure(card, 'Missing')).toHaveTextContent('20');
    expect(await figure(card, 'Corrupt')).toHaveTextContent('5');
    expect(await figure(card, 'Unused photo files')).toHaveTextContent('3');
    expect(await figure(card, 'Checked at')).toHaveTextContent(submittedText(FINISHED_AT));
    expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Check Files' })).toBeEnabled();
    expect(within(card).getByRole('button', { name: 'Restore from Backups' })).toBeEnabled();
    expect(within(card).getByText('25 records have a missing or corrupt photo.')).toBeInTheDocument();
    expect(within(card).queryByText('All photos are present and intact.')).not.toBeInTheDocument();

    expect(tableRows(card)).toHaveLength(20);
    expect(tableRows(card)[1]).toEqual(['REC-002', 'Missing', '14 Feb 2026', 'RTM/WR', 'C-2', '–']);
    expect(tableRows(card)[3]).toEqual(['REC-004', 'Corrupt', '14 Feb 2026', 'RTM/WR', 'C-4', 'Ravi Kumar']);
    // The phone's blocks (shown instead of the table on a narrow screen) hold the same records.
    expect(within(within(card).getByRole('list', { name: 'Records with a photo problem' })).getAllByRole('listitem')).toHaveLength(20);
    expect(within(card).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Previous' })).toBeDisabled();

    // Page 2 is read again with the check's taskId: no new check starts.
    await userEvent.click(within(card).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(tableRows(card).map((row) => row[0])).toEqual(['REC-021', 'REC-022', 'REC-023', 'REC-024', 'REC-025']));
    expect(within(card).getByText('Page 2 of 2')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(statusCalls(requests).map((r) => r.url)).toEqual([
      '/api/admin/files/status',
      TASK_URL,
      `/api/admin/files/status?taskId=${TASK_ID}&page=2&pageSize=20`,
    ]);
    expect(statusCalls(requests).every((r) => r.method === 'GET' && r.credentials === 'include')).toBe(true);

    // Back to page 1: the records that came with the check, not asked again.
    await userEvent.click(within(card).getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(tableRows(card)[0]?.[0]).toBe('REC-001'));
    expect(statusCalls(requests)).toHaveLength(3);
  });

  it('says all photos are present and intact when a check finds nothing, without polling', async () => {
    const requests = asAdmin({
      'GET /api/admin/files/status': () =>
        jsonResponse(200, done({ progress: { done: 812, total: 812 }, summary: { missing: 0, corrupt: 0, total: 812, orphans: 0 }, records: { items: [], page: 1, pageSize: 20, total: 0 } })),
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Check Files' }));
    expect(await within(card).findByText('All photos are present and intact.')).toBeInTheDocument();
    expect(await figure(card, 'Records with photos')).toHaveTextContent('812');
    expect(await figure(card, 'Missing')).toHaveTextContent('0');
    expect(within(card).queryByRole('table')).not.toBeInTheDocument();
    expect(within(card).queryByText(/^Page /)).not.toBeInTheDocument();
    expect(statusCalls(requests).map((r) => r.url)).toEqual(['/api/admin/files/status']);
  });

  it('restores from the backups, polled while it runs, and suggests another check', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const poll = deferred<Response>();
    const requests = asAdmin({
      'POST /api/admin/files/restore': () => jsonResponse(202, task({ kind: 'restore' })),
      [`GET ${TASK_URL}`]: () => poll.promise,
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Restore from Backups' }));

    // Not counted yet: the bar is indeterminate.
    const bar = await within(card).findByRole('progressbar');
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(within(card).getByRole('button', { name: 'Restoring...' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Check Files' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Recreate Derived Files' })).toBeDisabled();

    await nextPoll();
    await waitFor(() => expect(requests.filter((r) => r.url === TASK_URL)).toHaveLength(1));
    poll.resolve(
      jsonResponse(200, task({ kind: 'restore', progress: { done: 120, total: 300 } })),
    );
    await waitFor(() => expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40'));
    expect(within(card).getByText('Restored: looked at 120 of 300 photos')).toBeInTheDocument();

    stubFetch({
      [`GET ${TASK_URL}`]: () =>
        jsonResponse(200, done({ kind: 'restore', progress: { done: 300, total: 300 }, summary: { restoredCount: 12, failedCount: 1, stillMissingCount: 3 } })),
    });
    await nextPoll();
    expect(await figure(card, 'Restored')).toHaveTextContent('12');
    expect(await figure(card, 'Could not restore')).toHaveTextContent('1');
    expect(await figure(card, 'Still missing')).toHaveTextContent('3');
    expect(within(card).getByText(/Still-missing photos are not in any backup/)).toBeInTheDocument();
    expect(within(card).getByText('Run Check Files again to see which records still have a photo problem.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Check Files' })).toBeEnabled();
    const [post] = requests.filter((r) => r.method === 'POST');
    expect(post?.url).toBe('/api/admin/files/restore');
    expect(post?.body).toBeNull();
  });

  it('recreates the derived files and names the photos skipped', async () => {
    const requests = asAdmin({
      'POST /api/admin/files/recreate': () =>
        jsonResponse(200, done({ kind: 'recreate', progress: { done: 300, total: 300 }, summary: { recreatedCount: 296, skippedCount: 4 } })),
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Recreate Derived Files' }));
    expect(await within(card).findByText('Recreated derived files for 296 photos')).toBeInTheDocument();
    expect(within(card).getByText('4 photos skipped: their original is missing or corrupt')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(['/api/admin/files/recreate']);
  });

  it('leaves out the skipped line when none was skipped', async () => {
    asAdmin({
      'POST /api/admin/files/recreate': () => jsonResponse(200, done({ kind: 'recreate', summary: { recreatedCount: 1, skippedCount: 0 } })),
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Recreate Derived Files' }));
    expect(await within(card).findByText('Recreated derived files for 1 photo')).toBeInTheDocument();
    expect(within(card).queryByText(/skipped/)).not.toBeInTheDocument();
  });

  it("gives 'Status Check Failed' with the server's message when the check is refused", async () => {
    asAdmin({
      'GET /api/admin/files/status': () => jsonResponse(503, { code: 'UNAVAILABLE', message: 'The photo store is not reachable' }),
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Check Files' }));
    expect(await notifications().findByText('Status Check Failed')).toBeInTheDocument();
    expect(notifications().getByText('The photo store is not reachable')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Check Files' })).toBeEnabled();
    expect(within(card).getByRole('button', { name: 'Restore from Backups' })).toBeEnabled();
    expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it("gives 'Restoration Failed' with the task's own reason when the restore ends 'failed'", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    asAdmin({
      'POST /api/admin/files/restore': () => jsonResponse(202, task({ kind: 'restore', progress: { done: 5, total: 300 } })),
      [`GET ${TASK_URL}`]: () => jsonResponse(200, task({ kind: 'restore', state: 'failed', finishedAt: FINISHED_AT, error: 'No backup is configured' })),
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Restore from Backups' }));
    expect(await within(card).findByRole('button', { name: 'Restoring...' })).toBeDisabled();
    await nextPoll();
    expect(await notifications().findByText('Restoration Failed')).toBeInTheDocument();
    expect(notifications().getByText('No backup is configured')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Restore from Backups' })).toBeEnabled();
    expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it("gives 'Recreation Failed' with a fallback when the server says nothing", async () => {
    asAdmin({ 'POST /api/admin/files/recreate': () => new Response('', { status: 500 }) });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Recreate Derived Files' }));
    expect(await notifications().findByText('Recreation Failed')).toBeInTheDocument();
    expect(notifications().getByText('The thumbnails and print copies could not be made again. Please try again.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Recreate Derived Files' })).toBeEnabled();
  });

  it('bears a dropped poll, but gives up with the toast when the polls keep failing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let polls = 0;
    const requests = asAdmin({
      'POST /api/admin/files/recreate': () => jsonResponse(202, task({ kind: 'recreate', progress: { done: 40, total: 300 } })),
      [`GET ${TASK_URL}`]: () => {
        polls += 1;
        if (polls === 1) throw new TypeError('Failed to fetch');
        if (polls === 2) return jsonResponse(200, task({ kind: 'recreate', progress: { done: 80, total: 300 } }));
        return jsonResponse(502, { code: 'BAD_GATEWAY', message: 'The server is restarting' });
      },
    });
    const card = await openCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Recreate Derived Files' }));
    expect(await within(card).findByText('Recreated: 40 of 300 photos')).toBeInTheDocument();

    await nextPoll(); // dropped: borne
    await waitFor(() => expect(polls).toBe(1));
    expect(within(card).getByRole('button', { name: 'Recreating...' })).toBeDisabled();
    await nextPoll();
    expect(await within(card).findByText('Recreated: 80 of 300 photos')).toBeInTheDocument();

    // Then four 502s in a row: three are borne, the fourth gives up.
    for (let i = 0; i < 4; i += 1) await nextPoll();
    expect(await notifications().findByText('Recreation Failed')).toBeInTheDocument();
    expect(notifications().getByText('The server is restarting')).toBeInTheDocument();
    expect(polls).toBe(6);
    expect(within(card).getByRole('button', { name: 'Recreate Derived Files' })).toBeEnabled();
    // No more polls once it has given up.
    await nextPoll();
    expect(requests.filter((r) => r.url === TASK_URL)).toHaveLength(6);
  });

  it('stops polling when the view is left', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requests = asAdmin({
      'GET /api/admin/files/status': () => jsonResponse(202, task({ progress: { done: 1, total: 10 } })),
      [`GET ${TASK_URL}`]: () => jsonResponse(200, task({ progress: { done: 2, total: 10 } })),
    });
    const view = renderApp('/admin?view=data-management');
    const card = await screen.findByRole('region', { name: 'Photo Files' });
    await userEvent.click(within(card).getByRole('button', { name: 'Check Files' }));
    await within(card).findByRole('progressbar');
    view.unmount();
    await nextPoll();
    await nextPoll();
    expect(requests.filter((r) => r.url === TASK_URL)).toHaveLength(0);
    expect(screen.queryByText('Status Check Failed')).not.toBeInTheDocument();
  });

  it('on opening, follows a task still running (started before a reload or by another Admin) without starting one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requests = asAdmin({
      'GET /api/admin/files/tasks': () => jsonResponse(200, { tasks: [task({ kind: 'restore', progress: { done: 30, total: 120 } })] }),
      [`GET ${TASK_URL}`]: () => jsonResponse(200, done({ kind: 'restore', summary: { restoredCount: 4, failedCount: 0, stillMissingCount: 1 } })),
    });
    const card = await openCard();
    expect(await within(card).findByRole('button', { name: 'Restoring...' })).toBeDisabled();
    await nextPoll();
    await waitFor(() => expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument());
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    expect(requests.filter((r) => r.url === TASK_URL)).toHaveLength(1);
  });

  it('on opening, shows the newest finished result', async () => {
    asAdmin({
      'GET /api/admin/files/tasks': () =>
        jsonResponse(200, {
          tasks: [
            done({ kind: 'check', finishedAt: '2026-03-01T09:00:00.000Z', summary: { missing: 0, corrupt: 0, total: 5000, orphans: 0 }, records: { items: [], page: 1, pageSize: 20, total: 0 } }),
            done({ kind: 'recreate', finishedAt: FINISHED_AT, summary: { recreatedCount: 4990, skippedCount: 10 } }),
          ],
        }),
    });
    const card = await openCard();
    expect(await within(card).findByText(/4,990/)).toBeInTheDocument();
  });
});
