import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../../../common/schemas/actions.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { type Handler, jsonResponse, type RecordedRequest } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, client, signedInAdminShell } from '../../../test/users.js';


const AS_OF = '2026-11-23';

function makeAction(id: number, overrides: Partial<Action> = {}): Action {
  return {
    id,
    kind: 'part-stolen',
    state: 'open',
    severity: 'high',
    divisionRailway: 'RTM/WR',
    section: 'RTM-NAD',
    curveNumber: String(10 + id),
    line: 'Up',
    sse: 'K. Menon',
    reported: 'Pump Assembly – Gear pump',
    reportCount: 1,
    openedAt: '2026-11-20T06:30:00.000Z',
    openedOn: '2026-11-20',
    dueDate: '2026-11-27',
    lastReportedOn: '2026-11-20',
    ageDays: 3,
    ageing: '3-7',
    overdue: false,
    openedByRecordId: `INS-20261120-00000${id}`,
    closedOn: null,
    closedAt: null,
    closedByRecordId: null,
    closedByEmployeeId: null,
    closeNote: null,
    history: [
      {
        event: 'opened',
        at: '2026-11-20T06:30:00.000Z',
        recordId: `INS-20261120-00000${id}`,
        recordDate: '2026-11-20',
        actorEmployeeId: 'TEC2001',
        actorName: 'Ravi Kumar Meena',
        note: null,
      },
    ],
    ...overrides,
  };
}

const OVERDUE = makeAction(1, {
  kind: 'machine-not-working',
  reported: 'Machine not working',
  dueDate: '2026-11-18',
  openedOn: '2026-11-16',
  ageDays: 7,
  overdue: true,
  reportCount: 2,
});
const FRESH = makeAction(2, { kind: 'cof-high', severity: 'medium', reported: 'CoF 0.31', ageDays: 1, ageing: '0-2', openedOn: '2026-11-22', dueDate: '2026-11-25' });
const CLOSED_BY_VISIT = makeAction(3, {
  state: 'closed',
  closedOn: '2026-11-22',
  closedAt: '2026-11-22T06:30:00.000Z',
  closedByRecordId: 'INS-20261122-000009',
  ageDays: 2,
  ageing: '0-2',
});

/** The list the way the server answers it: filters by state, limit and offset. */
function actionServer(all: () => Action[]): Handler {
  return (request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const state = query.get('state') ?? 'open';
    const chosen = all().filter((a) => state === 'all' || a.state === state);
    const limit = Number(query.get('limit') ?? 50);
    const offset = Number(query.get('offset') ?? 0);
    return jsonResponse(200, { asOf: AS_OF, total: chosen.length, actions: chosen.slice(offset, offset + limit) });
  };
}

function signedInAs(user: PublicUser, routes: Record<string, Handler> = {}) {
  return signedInAdminShell(user, {
    'GET /api/actions': actionServer(() => [OVERDUE, FRESH, CLOSED_BY_VISIT]),
    ...routes,
  });
}

const location = () => screen.getByTestId('location').textContent ?? '';
const queryOf = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://x').searchParams);
const pageRequests = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/actions?') && queryOf(r).limit === '50');
const cards = () => within(screen.getByRole('list', { name: 'Follow-up actions' })).getAllByRole('article');
const cardNamed = (number: string) => cards().find((card) => within(card).queryByText(number) !== null) as HTMLElement;

async function openActions(path = '/admin?view=actions') {
  renderApp(path);
  await screen.findByRole('heading', { level: 2, name: 'Follow-up Actions' }, { timeout: 10_000 });
}

// The view's chunk loads lazily and a page is up to 50 cards in jsdom: more than the default 5 s on a busy shared machine.
const SLOW = { timeout: 30_000 };

describe('the Actions view', SLOW, () => {
  it('shows the open actions as cards with their age, due date and ageing counts', async () => {
    const requests = signedInAs(admin);
    await openActions();
    expect(await screen.findByText('Showing 1–2 of 2 actions')).toBeInTheDocument();
    const overdue = cardNamed('Action 1');
    expect(within(overdue).getByRole('heading', { name: 'Machine not working' })).toBeInTheDocument();
    expect(overdue).toHaveTextContent('Severity: High');
    expect(overdue).toHaveTextContent('RTM/WR · RTM-NAD · Curve 11 · Up');
    expect(overdue).toHaveTextContent('SSE: K. Menon');
    expect(overdue).toHaveTextContent('reported 7 d ago');
    expect(overdue).toHaveTextContent('Reported 2 times');
    expect(overdue).toHaveTextContent('overdue by 5 d');
    expect(cardNamed('Action 2')).toHaveTextContent('due 25 Nov 2026');
    expect(cardNamed('Action 2')).toHaveTextContent('CoF 0.31');

    const ageing = screen.getByRole('region', { name: 'Open actions by age' });
    await waitFor(() => expect(within(ageing).getByText('0–2 days').nextSibling).toHaveTextContent('1'));
    expect(within(ageing).getByText('3–7 days').nextSibling).toHaveTextContent('1');
    expect(within(ageing).getByText('Over 30 days').nextSibling).toHaveTextContent('0');

    expect(queryOf(pageRequests(requests)[0])).toEqual({ state: 'open', limit: '50', offset: '0' });
  });

  it('builds the query from the filters, keeps them in the address, and pages with limit and offset', async () => {
    const many = Array.from({ length: 60 }, (_, i) => makeAction(i + 1));
    const requests = signedInAs(admin, { 'GET /api/actions': actionServer(() => many) });
    await openActions();
    await screen.findByText('Showing 1–50 of 60 actions');
    await userEvent.click(screen.getByRole('button', { name: /^Next/ }));
    await screen.findByText('Showing 51–60 of 60 actions');
    expect(queryOf(pageRequests(requests).at(-1))).toMatchObject({ limit: '50', offset: '50' });

    await userEvent.selectOptions(screen.getByLabelText('Division/Railway'), 'RTM/WR');
    await userEvent.selectOptions(screen.getByLabelText('Section'), 'NAD-UJN');
    await userEvent.selectOptions(screen.getByLabelText('SSE'), 'A. Rao');
    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'CoF high');
    await userEvent.selectOptions(screen.getByLabelText('State'), 'Open and closed');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Overdue only' }));
    await waitFor(() =>
      expect(queryOf(pageRequests(requests).at(-1))).toEqual({
        division: 'RTM/WR',
        section: 'NAD-UJN',
        sse: 'A. Rao',
        kind: 'cof-high',
        state: 'all',
        overdue: 'true',
        limit: '50',
        offset: '0',
      }),
    );
    expect(location()).toBe('/admin?view=actions&division=RTM%2FWR&section=NAD-UJN&sse=A.+Rao&kind=cof-high&state=all&overdue=true');

    // The closed ones cannot be overdue: choosing them drops the box.
    await userEvent.selectOptions(screen.getByLabelText('State'), 'Closed');
    expect(screen.getByRole('checkbox', { name: 'Overdue only' })).toBeDisabled();
    await waitFor(() => expect(queryOf(pageRequests(requests).at(-1))).toMatchObject({ state: 'closed' }));
    expect(queryOf(pageRequests(requests).at(-1))).not.toHaveProperty('overdue');

    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(location()).toBe('/admin?view=actions'));
  });

  it('opens on the filters of its address, as the landing links to it', async () => {
    const requests = signedInAs(admin);
    await openActions('/admin?view=actions&division=FZR%2FNR&overdue=true');
    expect(screen.getByLabelText('Division/Railway')).toHaveValue('FZR/NR');
    expect(screen.getByRole('checkbox', { name: 'Overdue only' })).toBeChecked();
    await waitFor(() => expect(queryOf(pageRequests(requests)[0])).toMatchObject({ division: 'FZR/NR', overdue: 'true', state: 'open' }));
  });

  it("shows an opened card's photo, record, history, and a closed one's closing record and the days it took", async () => {
    signedInAs(admin, { 'GET /api/actions': actionServer(() => [OVERDUE, CLOSED_BY_VISIT]) });
    await openActions('/admin?view=actions&state=all');
    await screen.findByText('Showing 1–2 of 2 actions');
    const open = cardNamed('Action 1');
    expect(within(open).queryByRole('img')).not.toBeInTheDocument();
    await userEvent.click(within(open).getByRole('button', { name: /^Show details/ }));
    const details = within(open).getByRole('region', { name: /^Details of Machine not working/ });
    expect(within(details).getByRole('img', { name: 'Photo of INS-20261120-000001' })).toHaveAttribute('src', '/api/inspections/INS-20261120-000001/thumbnail');
    expect(within(details).getByRole('link', { name: 'Open record INS-20261120-000001' })).toHaveAttribute(
      'href',
      '/admin?view=records-management&q=INS-20261120-000001',
    );
    expect(within(details).getByRole('link', { name: 'Full photo INS-20261120-000001' })).toHaveAttribute('href', '/api/inspections/INS-20261120-000001/image');
    const history = within(details).getByRole('list', { name: 'History' });
    expect(within(history).getByRole('listitem')).toHaveTextContent('Opened');
    expect(within(history).getByRole('listitem')).toHaveTextContent('Ravi Kumar Meena (TEC2001)');

    const closed = cardNamed('Action 3');
    expect(closed).toHaveTextContent('Closed 22 Nov 2026 · took 2 d');
    await userEvent.click(within(closed).getByRole('button', { name: /^Show details/ }));
    expect(within(closed).getByRole('heading', { name: 'Closing record' })).toBeInTheDocument();
    expect(within(closed).getByRole('img', { name: 'Photo of INS-20261122-000009' })).toBeInTheDocument();
    expect(within(closed).getByRole('button', { name: 'Reopen Action' })).toBeInTheDocument();
  });

  it('asks an Admin for a note before closing, shows the server’s refusal beside it, and updates the list when closed', async () => {
    let actions = [OVERDUE, FRESH];
    let refuse = true;
    const requests = signedInAs(admin, {
      'GET /api/actions': actionServer(() => actions),
      'POST /api/actions/1/close': (request) => {
        if (refuse) {
          return jsonResponse(400, { code: 'VALIDATION_FAILED', message: 'The request is not valid', fields: { note: 'note must be at most 1000 characters' }, requestId: 'r1' });
        }
        const closed = { ...OVERDUE, state: 'closed' as const, overdue: false, closedOn: AS_OF, closeNote: (JSON.parse(request.body ?? '{}') as { note: string }).note, closedByEmployeeId: admin.employeeId };
        actions = [closed, FRESH];
        return jsonResponse(200, closed);
      },
    });
    await openActions();
    await screen.findByText('Showing 1–2 of 2 actions');
    const card = cardNamed('Action 1');
    await userEvent.click(within(card).getByRole('button', { name: /^Show details/ }));
    await userEvent.click(within(card).getByRole('button', { name: 'Close Action' }));
    const note = within(card).getByLabelText('Note (why)');

    await userEvent.click(within(card).getByRole('button', { name: 'Close with Note' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('A note is required: say why.');
    expect(note).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await userEvent.type(note, 'Pump replaced');
    await userEvent.click(within(card).getByRole('button', { name: 'Close with Note' }));
    expect(await within(card).findByText('note must be at most 1000 characters')).toBeInTheDocument();

    refuse = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Close with Note' }));
    expect(await within(screen.getByRole('region', { name: 'Notifications' })).findByText('Action Closed')).toBeInTheDocument();
    const post = requests.find((r) => r.method === 'POST' && !r.body?.includes('1000'));
    expect(JSON.parse(post?.body ?? '{}')).toEqual({ note: 'Pump replaced' });
    // The list is asked again: the closed action leaves the open ones.
    await screen.findByText('Showing 1 of 1 action');
    expect(screen.queryByText('Action 1')).not.toBeInTheDocument();
  });
});

describe('for a Client', SLOW, () => {
  it('shows their division fixed, no division filter and no buttons to change an action', async () => {
    const requests = signedInAs(client);
    await openActions('/admin?view=actions&division=FZR%2FNR');
    await screen.findByText('Showing 1–2 of 2 actions');
    expect(screen.queryByLabelText('Division/Railway')).not.toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Filters' })).toHaveTextContent('RTM/WR');
    // Whatever the address says, their own division is asked for (the server would impose it anyway).
    expect(queryOf(pageRequests(requests)[0])).toMatchObject({ division: 'RTM/WR' });

    const card = cardNamed('Action 1');
    await userEvent.click(within(card).getByRole('button', { name: /^Show details/ }));
    expect(within(card).getByRole('img', { name: 'Photo of INS-20261120-000001' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Full photo INS-20261120-000001' })).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: /^Open record/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Close Action|Reopen Action/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear Filters' })).toBeDisabled();
  });
});

describe('the reports landing', SLOW, () => {
  it('counts open and overdue actions per division, each count opening the filtered view', async () => {
    const requests = signedInAs(admin, {
      'GET /api/actions/counts': () =>
        jsonResponse(200, {
          asOf: AS_OF,
          divisions: [
            { divisionRailway: 'FZR/NR', open: 1, overdue: 0 },
            { divisionRailway: 'RTM/WR', open: 4, overdue: 2 },
          ],
        }),
    });
    renderApp('/admin?view=reports');
    const card = await screen.findByRole('region', { name: 'Follow-up actions' });
    const table = await within(card).findByRole('table', { name: 'Open and overdue follow-up actions by division' });
    const rtm = within(table).getByRole('row', { name: /^RTM\/WR/ });
    expect(rtm).toHaveTextContent('RTM/WR42');
    expect(within(table).getByRole('row', { name: /^Total/ })).toHaveTextContent('Total52');
    expect(within(table).getByRole('link', { name: '4 open actions in RTM/WR' })).toHaveAttribute('href', '/admin?view=actions&division=RTM%2FWR');

    await userEvent.click(within(table).getByRole('link', { name: '2 overdue actions in RTM/WR' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Follow-up Actions' })).toBeInTheDocument();
    expect(location()).toBe('/admin?view=actions&division=RTM%2FWR&overdue=true');
    await waitFor(() => expect(queryOf(pageRequests(requests)[0])).toMatchObject({ division: 'RTM/WR', overdue: 'true' }));

    // The landing's division list narrows the counts too.
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await userEvent.selectOptions(await screen.findByLabelText('Division'), 'FZR/NR');
    await waitFor(() => expect(requests.some((r) => r.url === '/api/actions/counts?division=FZR%2FNR')).toBe(true));
  });

  it('makes the actions in view into an Excel report job with the same filters', async () => {
    const report = { reportId: 'r1', status: 'done', progress: 100, recordCount: 2, pdfUrl: '/api/download/r1' };
    const requests = signedInAs(admin, {
      'POST /api/reports/follow-up-actions': () => jsonResponse(200, report),
      'GET /api/reports': () => jsonResponse(200, { reports: [] }),
    });
    await openActions('/admin?view=actions&division=RTM%2FWR&kind=cof-high&overdue=true');
    await screen.findByText(/Showing/);
    await userEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST' && r.url === '/api/reports/follow-up-actions')).toBe(true));
    const post = requests.find((r) => r.method === 'POST' && r.url === '/api/reports/follow-up-actions');
    expect(JSON.parse(String(post?.body))).toEqual({ division: 'RTM/WR', kind: 'cof-high', state: 'open', overdue: 'true' });
    expect(await screen.findByText('Excel report ready')).toBeInTheDocument();
  });
});
