import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import type { MachineProgressResponse, MachineSummary } from '../../../../common/schemas/machines.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { admin, storeUser } from '../../test/users.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

const owner: PublicUser = { ...admin, id: 9, employeeId: 'OWN001', name: 'Olga Owner', isOwner: true };

const RTM: MachineSummary = {
  division: 'RTM/WR',
  scope: 120,
  foundationCompleted: 80,
  machinesInstalled: 50,
  machinesCommissioned: 30,
  updatedAt: '2025-06-20T10:30:00.000Z',
};
const FZR: MachineSummary = { division: 'FZR/NR', scope: 64, foundationCompleted: 40, machinesInstalled: 12, machinesCommissioned: 0, updatedAt: null };
const NEVER = (division: string): MachineSummary => ({
  division,
  scope: 0,
  foundationCompleted: 0,
  machinesInstalled: 0,
  machinesCommissioned: 0,
  updatedAt: null,
});

const params = (request: RecordedRequest) => new URL(request.url, 'http://localhost').searchParams;

/**
 * A server holding the owner's figures per division: GET answers what is saved, a PUT saves
 * (unless `put` answers otherwise), as the real API does.
 */
function signedInAsOwner({ put, user = owner }: { put?: Handler; user?: PublicUser } = {}) {
  const saved = new Map<string, MachineSummary>([
    ['RTM/WR', RTM],
    ['FZR/NR', FZR],
  ]);
  const summaryOf = (division: string) => saved.get(division) ?? NEVER(division);
  storeUser(user);
  const requests = stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'GET /api/machine-dashboard-summary': (request) => jsonResponse(200, summaryOf(params(request).get('division') ?? 'RTM/WR')),
    'GET /api/machine-dashboard-summaries': () =>
      jsonResponse(200, { summaries: ['RTM/WR', 'FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR'].map(summaryOf) }),
    'GET /api/machine-progress': (request) => {
      const division = params(request).get('division') ?? 'all';
      const { updatedAt, ...figures } = summaryOf(division);
      const answer: MachineProgressResponse = {
        division,
        summary: updatedAt === null ? null : { ...figures, updatedAt },
        // The per-curve rollout records of RTM/WR count two curves fewer in scope and one fewer commissioned.
        fromCurveRecords: division === 'RTM/WR' ? { scope: 118, foundationCompleted: 80, machinesInstalled: 50, machinesCommissioned: 29 } : null,
      };
      return jsonResponse(200, answer);
    },
    'PUT /api/machine-dashboard-summary': async (request) => {
      if (put) return put(request);
      const body = JSON.parse(request.body ?? '{}') as Omit<MachineSummary, 'updatedAt'>;
      const summary: MachineSummary = { ...body, updatedAt: '2025-06-21T08:00:00.000Z' };
      saved.set(body.division, summary);
      return jsonResponse(200, summary);
    },
  });
  return requests;
}

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const location = () => screen.getByTestId('location');
const field = (label: string) => screen.getByLabelText(label);
const puts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'PUT' && r.url === '/api/machine-dashboard-summary');
const summaryUrls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/machine-dashboard-summary?')).map((r) => r.url);
const updateButton = () => screen.getByRole('button', { name: 'Update Progress Values' });

/** The figures the four fields hold, in the order of the form. */
const fieldValues = () => ['Scope', 'Foundation Completed', 'Machines Installed', 'Machines Commissioned'].map((label) => (field(label) as HTMLInputElement).value);

async function openManagement() {
  renderApp('/admin?view=machine-dashboard-management');
  await screen.findByRole('heading', { level: 2, name: 'Machine Dashboard' });
  await screen.findByRole('form', { name: 'Progress values of RTM/WR' });
}

async function replace(label: string, text: string) {
  await userEvent.clear(field(label));
  if (text !== '') await userEvent.type(field(label), text);
}

describe('machine dashboard management: loading', () => {
  it('loads RTM/WR by default and puts its figures in the four fields', async () => {
    const requests = signedInAsOwner();
    await openManagement();
    expect(screen.getByLabelText('Division')).toHaveValue('RTM/WR');
    expect(summaryUrls(requests)).toEqual(['/api/machine-dashboard-summary?division=RTM%2FWR']);
    expect(field('Scope')).toHaveValue(120);
    expect(field('Foundation Completed')).toHaveValue(80);
    expect(field('Machines Installed')).toHaveValue(50);
    expect(field('Machines Commissioned')).toHaveValue(30);
    // The per-curve records' count is shown under each field, to compare with.
    await waitFor(() => expect(field('Scope')).toHaveAccessibleDescription('Rollout sheet: 118'));
    expect(field('Machines Commissioned')).toHaveAccessibleDescription('Rollout sheet: 29');
    expect(screen.getByText(/^Last updated /)).toBeInTheDocument();
  });

  it('loads the division chosen, and a PUT then names that division', async () => {
    const requests = signedInAsOwner();
    await openManagement();
    await userEvent.selectOptions(screen.getByLabelText('Division'), 'FZR/NR');
    await screen.findByRole('form', { name: 'Progress values of FZR/NR' });
    expect(summaryUrls(requests)).toContain('/api/machine-dashboard-summary?division=FZR%2FNR');
    expect(fieldValues()).toEqual(['64', '40', '12', '0']);
    // FZR/NR has no per-curve records: no 'Rollout sheet' line left over from RTM/WR.
    expect(screen.queryByText(/Rollout sheet/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Last updated /)).not.toBeInTheDocument();

    await replace('Machines Installed', '20');
    await userEvent.click(updateButton());
    await notifications().findByText('Machine Dashboard Updated');
    expect(JSON.parse(puts(requests)[0]?.body ?? 'null')).toEqual({
      division: 'FZR/NR',
      scope: 64,
      foundationCompleted: 40,
      machinesInstalled: 20,
      machinesCommissioned: 0,
    });
  });

  it("lists every division's figures from GET /api/machine-dashboard-summaries in the 'All divisions' table", async () => {
    const requests = signedInAsOwner();
    await openManagement();
    const card = await screen.findByRole('region', { name: 'All divisions' });
    expect(requests.some((r) => r.method === 'GET' && r.url === '/api/machine-dashboard-summaries')).toBe(true);
    const [head, ...rows] = within(card).getAllByRole('row');
    expect([...(head as HTMLElement).querySelectorAll('th')].map((th) => th.textContent)).toEqual([
      'Division',
      'Scope',
      'Foundation Completed',
      'Machines Installed',
      'Machines Commissioned',
      'Updated',
    ]);
    const cells = rows.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(cells.map((c) => c.slice(0, 5))).toEqual([
      ['RTM/WR', '120', '80', '50', '30'],
      ['FZR/NR', '64', '40', '12', '0'],
      ['BRC/WR', '0', '0', '0', '0'],
      ['NDLS/NR', '0', '0', '0', '0'],
      ['JBP/WCR', '0', '0', '0', '0'],
    ]);
    expect(cells[0]?.[5]).toMatch(/2025/);
    expect(cells.slice(1).map((c) => c[5])).toEqual(['Never', 'Never', 'Never', 'Never']);
  });

  it('shows the server message when the figures cannot be loaded', async () => {
    storeUser(owner);
    stubFetch({
      'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
      'GET /api/auth/me': () => jsonResponse(200, { user: owner }),
      'GET /api/machine-dashboard-summary': () => jsonResponse(403, { code: 'FORBIDDEN', message: 'Only the owner may see these figures' }),
    });
    renderApp('/admin?view=machine-dashboard-management');
    const card = await screen.findByRole('region', { name: 'Update progress values' });
    expect(await within(card).findByRole('alert')).toHaveTextContent('Only the owner may see these figures');
    expect(screen.queryByRole('button', { name: 'Update Progress Values' })).not.toBeInTheDocument();
  });
});

describe('machine dashboard management: entering figures', () => {
  it('turns a non-numeric entry into 0 when the field is left, and sends 0', async () => {
    const requests = signedInAsOwner();
    await openManagement();
    // A number field gives the page an empty value for letters: that is what the browser reports.
    await replace('Machines Commissioned', 'abc');
    await userEvent.tab();
    expect(field('Machines Commissioned')).toHaveValue(0);

    await replace('Machines Installed', '');
    await userEvent.tab();
    expect(field('Machines Installed')).toHaveValue(0);

    await userEvent.click(updateButton());
    await notifications().findByText('Machine Dashboard Updated');
    expect(JSON.parse(puts(requests)[0]?.body ?? 'null')).toEqual({
      division: 'RTM/WR',
      scope: 120,
      foundationCompleted: 80,
      machinesInstalled: 0,
      machinesCommissioned: 0,
    });
  });

  it('names an impossible set under Machines Installed and sends no PUT', async () => {
    const requests = signedInAsOwner();
    await openManagement();
    await replace('Machines Installed', '90');
    await userEvent.click(updateButton());
    await waitFor(() =>
      expect(field('Machines Installed')).toHaveAccessibleDescription('Machines installed (90) cannot be more than foundation completed (80)'),
    );
    expect(field('Machines Installed')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Foundation Completed')).not.toHaveAttribute('aria-invalid');
    expect(puts(requests)).toHaveLength(0);
    expect(notifications().queryByText('Machine Dashboard Updated')).not.toBeInTheDocument();
  });

  it("sends the four figures with the division, reads 'Updating...' while pending, then toasts 'Machine Dashboard Updated'", async () => {
    const answer = deferred<Response>();
    const requests = signedInAsOwner({ put: () => answer.promise });
    await openManagement();
    await replace('Foundation Completed', '85');
    await replace('Machines Installed', '60');
    await userEvent.click(updateButton());

    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeDisabled();
    const [put] = puts(requests);
    expect(put?.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(put?.body ?? 'null')).toEqual({
      division: 'RTM/WR',
      scope: 120,
      foundationCompleted: 85,
      machinesInstalled: 60,
      machinesCommissioned: 30,
    });

    const before = summaryUrls(requests).length;
    answer.resolve(
      jsonResponse(200, { division: 'RTM/WR', scope: 120, foundationCompleted: 85, machinesInstalled: 60, machinesCommissioned: 30, updatedAt: '2025-06-21T08:00:00.000Z' }),
    );
    const toast = await notifications().findByRole('status');
    expect(within(toast).getByText('Machine Dashboard Updated')).toBeInTheDocument();
    expect(within(toast).getByText('Progress values for RTM/WR have been saved.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Update Progress Values' })).toBeEnabled();
    // The saved figures are asked again, so every view of them is current.
    await waitFor(() => expect(summaryUrls(requests).length).toBeGreaterThan(before));
  });

  it("shows 'Failed to update machine dashboard' when the server refuses (403), and keeps the entries", async () => {
    signedInAsOwner({ put: () => jsonResponse(403, { code: 'FORBIDDEN', message: 'Only the owner may change the machine dashboard' }) });
    await openManagement();
    await replace('Foundation Completed', '85');
    await userEvent.click(updateButton());
    const toast = await notifications().findByRole('alert');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent('Failed to update machine dashboard');
    expect(toast).toHaveTextContent('Only the owner may change the machine dashboard');
    expect(field('Foundation Completed')).toHaveValue(85);
    expect(updateButton()).toBeEnabled();
  });

  it('puts the message of a 400 answer under the field it names', async () => {
    signedInAsOwner({
      put: () =>
        jsonResponse(400, {
          code: 'VALIDATION_FAILED',
          message: 'The request is not valid',
          fields: { machinesCommissioned: 'Machines commissioned must be at most 100,000' },
        }),
    });
    await openManagement();
    await replace('Machines Commissioned', '40');
    await userEvent.click(updateButton());
    await waitFor(() =>
      expect(field('Machines Commissioned')).toHaveAccessibleDescription('Machines commissioned must be at most 100,000'),
    );
    expect(field('Machines Commissioned')).toHaveAttribute('aria-invalid', 'true');
    expect(await notifications().findByRole('alert')).toHaveTextContent('Failed to update machine dashboard: The request is not valid');
  });
});

describe('machine dashboard management: navigation', () => {
  it('returns to Data Management on Cancel, sending nothing', async () => {
    const requests = signedInAsOwner();
    await openManagement();
    await replace('Scope', '999');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Data Management' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/admin?view=data-management');
    expect(puts(requests)).toHaveLength(0);
  });
});
