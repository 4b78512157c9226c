import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import type { MachineProgressResponse } from '../../../../common/schemas/machines.js';
import { USER_STORAGE_KEY } from '../../lib/storage-keys.js';
import { jsonResponse, type RecordedRequest, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { admin, client, storeUser } from '../../test/users.js';

type Progress = Pick<MachineProgressResponse, 'summary' | 'fromCurveRecords'>;

const figures = (scope: number, foundationCompleted: number, machinesInstalled: number, machinesCommissioned: number) => ({
  scope,
  foundationCompleted,
  machinesInstalled,
  machinesCommissioned,
});

const NOTHING: Progress = { summary: null, fromCurveRecords: null };

const params = (request: RecordedRequest) => new URL(request.url, 'http://localhost').searchParams;

/** GET /api/machine-progress answers by division from `byDivision` ('all' and each division). */
function signedInAs(user: PublicUser, byDivision: Record<string, Progress>) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'POST /api/auth/logout': () => jsonResponse(200, { success: true }),
    'GET /api/machine-progress': (request) => {
      const division = params(request).get('division') ?? 'all';
      const answer: MachineProgressResponse = { division, ...(byDivision[division] ?? NOTHING) };
      return jsonResponse(200, answer);
    },
  });
}

const progressUrls = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.url.split('?')[0] === '/api/machine-progress').map((r) => r.url);

const card = () => screen.getByRole('region', { name: 'Machine Installation Progress' });

/** One card's texts: the large figure, then the rollout sheet's count where it shows one. */
const cardTexts = (label: string) => {
  const box = within(card()).getByText(label, { selector: 'dt' }).parentElement as HTMLElement;
  return [...box.querySelectorAll('dd')].map((dd) => dd.textContent);
};
const allCards = () => ['Scope', 'Foundation', 'Installed', 'Commissioned'].map(cardTexts);

const NOTE = /Large figures are those entered for the division; .Rollout sheet. is counted from the per-curve rollout records/;

async function openReports() {
  renderApp('/admin?view=reports');
  await screen.findByRole('heading', { level: 2, name: 'Reports & Analytics' });
  await screen.findByRole('region', { name: 'Machine Installation Progress' });
}

describe('Machine Installation Progress on the reports landing', () => {
  it('shows a dash in each of the four cards when no figures were entered', async () => {
    const requests = signedInAs(admin, { all: NOTHING });
    await openReports();
    await waitFor(() => expect(progressUrls(requests)).toEqual(['/api/machine-progress?division=all']));
    await waitFor(() => expect(card()).not.toHaveAttribute('aria-busy'));
    expect(allCards()).toEqual([['–'], ['–'], ['–'], ['–']]);
    expect(within(card()).queryByText(/Rollout sheet/)).not.toBeInTheDocument();
    expect(within(card()).queryByText(NOTE)).not.toBeInTheDocument();
    expect(within(card()).queryByText(/Figures updated/)).not.toBeInTheDocument();
  });

  it('shows the entered figures, with no rollout sheet line where the per-curve records agree', async () => {
    signedInAs(admin, {
      all: { summary: { ...figures(1250, 900, 600, 3), updatedAt: '2025-06-20T10:30:00.000Z' }, fromCurveRecords: figures(1250, 900, 600, 3) },
    });
    await openReports();
    await waitFor(() => expect(cardTexts('Scope')).toEqual(['1,250']));
    expect(allCards()).toEqual([['1,250'], ['900'], ['600'], ['3']]);
    expect(within(card()).getByText(/^Figures updated .*2025/)).toBeInTheDocument();
    expect(within(card()).queryByText(NOTE)).not.toBeInTheDocument();
    expect(within(card()).getByRole('link', { name: 'Open Machine Dashboard' })).toHaveAttribute('href', '/machine-dashboard');
  });

  it("adds 'Rollout sheet: N' only to the cards whose per-curve count differs, with the note saying which is which", async () => {
    signedInAs(admin, {
      all: { summary: { ...figures(1250, 900, 600, 3), updatedAt: '2025-06-20T10:30:00.000Z' }, fromCurveRecords: figures(1250, 900, 1100, 12) },
    });
    await openReports();
    await waitFor(() => expect(cardTexts('Installed')).toEqual(['600', 'Rollout sheet: 1,100']));
    expect(allCards()).toEqual([['1,250'], ['900'], ['600', 'Rollout sheet: 1,100'], ['3', 'Rollout sheet: 12']]);
    expect(within(card()).getByText(NOTE)).toBeInTheDocument();
  });

  it('keeps the dashes but shows every rollout sheet count when only the per-curve records have figures', async () => {
    signedInAs(admin, { all: { summary: null, fromCurveRecords: figures(16, 12, 8, 0) } });
    await openReports();
    await waitFor(() => expect(cardTexts('Scope')).toEqual(['–', 'Rollout sheet: 16']));
    expect(allCards()).toEqual([
      ['–', 'Rollout sheet: 16'],
      ['–', 'Rollout sheet: 12'],
      ['–', 'Rollout sheet: 8'],
      ['–', 'Rollout sheet: 0'],
    ]);
    expect(within(card()).getByText(NOTE)).toBeInTheDocument();
  });

  it('asks for the division chosen in the Division select, and for all again', async () => {
    const requests = signedInAs(admin, {
      all: { summary: { ...figures(1250, 900, 600, 3), updatedAt: null }, fromCurveRecords: null },
      'FZR/NR': { summary: { ...figures(64, 40, 12, 0), updatedAt: null }, fromCurveRecords: null },
    });
    await openReports();
    const division = screen.getByLabelText('Division');
    expect(division).toHaveValue('all');
    expect([...(division as HTMLSelectElement).options].map((o) => o.value)).toEqual(['all', 'RTM/WR', 'FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR']);
    await waitFor(() => expect(cardTexts('Scope')).toEqual(['1,250']));

    await userEvent.selectOptions(division, 'FZR/NR');
    await waitFor(() => expect(cardTexts('Scope')).toEqual(['64']));
    expect(allCards()).toEqual([['64'], ['40'], ['12'], ['0']]);
    expect(progressUrls(requests)).toEqual(['/api/machine-progress?division=all', '/api/machine-progress?division=FZR%2FNR']);

    await userEvent.selectOptions(division, 'all');
    await waitFor(() => expect(progressUrls(requests)).toHaveLength(3));
    expect(progressUrls(requests)[2]).toBe('/api/machine-progress?division=all');
    await waitFor(() => expect(cardTexts('Scope')).toEqual(['1,250']));
  });

  it('shows the server message when the progress cannot be loaded, with dashes', async () => {
    storeUser(admin);
    stubFetch({
      'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
      'GET /api/auth/me': () => jsonResponse(200, { user: admin }),
      'GET /api/machine-progress': () => jsonResponse(503, { code: 'UNAVAILABLE', message: 'The database is not reachable' }),
    });
    await openReports();
    expect(await within(card()).findByRole('alert')).toHaveTextContent('The database is not reachable');
    expect(allCards()).toEqual([['–'], ['–'], ['–'], ['–']]);
  });
});

describe('Machine Installation Progress for a Client', () => {
  it('shows the division access instead of a Division select, asks for their division, and the back button reads Logout', async () => {
    const requests = signedInAs(client, {
      'RTM/WR': { summary: { ...figures(120, 80, 50, 30), updatedAt: '2025-06-20T10:30:00.000Z' }, fromCurveRecords: figures(120, 80, 50, 30) },
    });
    renderApp('/admin');
    await screen.findByRole('heading', { level: 2, name: 'Reports & Analytics' });
    expect(screen.getByRole('region', { name: 'Division access' })).toHaveTextContent('RTM/WR');
    expect(screen.queryByLabelText('Division')).not.toBeInTheDocument();

    await waitFor(() => expect(cardTexts('Scope')).toEqual(['120']));
    expect(allCards()).toEqual([['120'], ['80'], ['50'], ['30']]);
    expect(progressUrls(requests)).toEqual(['/api/machine-progress?division=RTM%2FWR']);

    const logout = screen.getByRole('button', { name: 'Logout' });
    expect(screen.queryByRole('button', { name: /Back/ })).not.toBeInTheDocument();
    await userEvent.click(logout);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });
});
