import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import { USER_STORAGE_KEY } from '../../lib/storage-keys.js';
import { jsonResponse, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { admin, client, storeUser } from '../../test/users.js';

const owner: PublicUser = { ...admin, id: 9, employeeId: 'OWN001', name: 'Olga Owner', isOwner: true };

function signedInAs(user: PublicUser) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'POST /api/auth/logout': () => jsonResponse(200, { success: true }),
    'GET /api/users': () => jsonResponse(200, { users: [] }),
  });
}

const location = () => screen.getByTestId('location');
const viewHeading = (name: string) => screen.findByRole('heading', { level: 2, name });
const tile = (name: string | RegExp) => screen.getByRole('button', { name });
const notifications = () => screen.getByRole('region', { name: 'Notifications' });
const back = () => userEvent.click(screen.getByRole('button', { name: 'Back' }));

describe('admin menu', () => {
  it('shows the three menu items and Back to Main App to an Admin', async () => {
    signedInAs(admin);
    renderApp('/admin');
    await viewHeading('Administration');
    const menu = screen.getByRole('navigation', { name: 'Admin menu' });
    expect(within(menu).getAllByRole('button').map((b) => b.querySelector('span')?.textContent)).toEqual([
      'Data Management',
      'Reports & Analytics',
      'User Management',
    ]);
    await userEvent.click(screen.getByRole('button', { name: /Back to Main App/ }));
    expect(location()).toHaveTextContent(/^\/purpose$/);
  });

  it('offers the language switch in the header, and keeps the choice on the user', async () => {
    const requests = signedInAs(admin);
    renderApp('/admin');
    await viewHeading('Administration');
    const languages = within(screen.getByRole('banner')).getByRole('group', { name: 'Language' });
    expect(within(languages).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(languages).getByRole('button', { name: 'हिंदी' }));
    await waitFor(() => expect(within(languages).getByRole('button', { name: 'हिंदी' })).toHaveAttribute('aria-pressed', 'true'));
    expect(document.documentElement.lang).toBe('hi');
    await waitFor(() => expect(requests.find((r) => r.method === 'PUT' && r.url === '/api/auth/language')?.body).toBe(JSON.stringify({ language: 'hi' })));
  });

  it("shows the product documents ('Func. Reqs.', User Requirements Doc) on the menu only to the owner", async () => {
    signedInAs(admin);
    const first = renderApp('/admin');
    await viewHeading('Administration');
    expect(screen.queryByRole('button', { name: 'Func. Reqs.' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'User Requirements Doc' })).not.toBeInTheDocument();
    first.unmount();

    signedInAs(owner);
    renderApp('/admin');
    await viewHeading('Administration');
    expect(screen.getByRole('button', { name: 'Func. Reqs.' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'User Requirements Doc' })).toBeInTheDocument();
  });

  it('shows the Machine Dashboard item in Data Management only to the owner', async () => {
    signedInAs(admin);
    const first = renderApp('/admin?view=data-management');
    await viewHeading('Data Management');
    expect(tile(/Inspection Records & Images/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Station & Curve Data' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Machine Dashboard/ })).not.toBeInTheDocument();
    first.unmount();

    signedInAs(owner);
    renderApp('/admin?view=data-management');
    await viewHeading('Data Management');
    await userEvent.click(tile(/Machine Dashboard/));
    expect(await viewHeading('Machine Dashboard')).toBeInTheDocument();
    expect(location()).toHaveTextContent('/admin?view=machine-dashboard-management');
  });

  it('keeps a non-owner Admin out of the machine dashboard editing view', async () => {
    signedInAs(admin);
    renderApp('/admin?view=machine-dashboard-management');
    expect(await viewHeading('Data Management')).toBeInTheDocument();
    expect(within(notifications()).getByText('Access Restricted')).toBeInTheDocument();
  });
});

describe('admin back navigation', () => {
  it.each([
    ['machine-dashboard-management', 'Data Management', owner],
    ['records-management', 'Data Management', admin],
    ['curve-details', 'Data Management', admin],
    ['station-details', 'Data Management', admin],
    ['user-management', 'Administration', admin],
    ['data-management', 'Administration', admin],
    ['reports', 'Administration', admin],
    ['inspection-reports', 'Reports & Analytics', admin],
    ['curve-maintenance', 'Reports & Analytics', admin],
    ['sse-reports', 'Reports & Analytics', admin],
    ['service-reports', 'Reports & Analytics', admin],
    ['data', 'Administration', admin],
  ] as const)('goes back from %s to %s', async (view, target, user) => {
    signedInAs(user);
    renderApp(`/admin?view=${view}`);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    await back();
    expect(await viewHeading(target)).toBeInTheDocument();
  });

  it('walks menu -> Data Management -> Station & Curve Data -> Curve Details and back', async () => {
    signedInAs(admin);
    renderApp('/admin');
    await viewHeading('Administration');
    await userEvent.click(tile(/Data Management/));
    await viewHeading('Data Management');
    await userEvent.click(tile('Curve Details'));
    expect(await viewHeading('Curve Details')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add New Curve' })).toBeInTheDocument();
    await back();
    await userEvent.click(tile('Station Details'));
    expect(await viewHeading('Station Details')).toBeInTheDocument();
    await back();
    await back();
    expect(await viewHeading('Administration')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/admin$/);
  });

  it('opens each report generator from the reports landing', async () => {
    signedInAs(admin);
    renderApp('/admin?view=reports');
    await viewHeading('Reports & Analytics');
    expect(screen.getByLabelText('Division')).toHaveValue('all');
    for (const [title, view] of [
      ['PDF Reports', 'inspection-reports'],
      ['Excel Reports', 'curve-maintenance'],
      ['SSE CoF Measurement', 'sse-reports'],
      ['Service Reports', 'service-reports'],
    ] as const) {
      await userEvent.click(tile(new RegExp(`^${title}`)));
      expect(await viewHeading(title)).toBeInTheDocument();
      expect(location()).toHaveTextContent(`/admin?view=${view}`);
      await back();
      await viewHeading('Reports & Analytics');
    }
  });
});

describe('admin dashboard for a Client', () => {
  it('starts at reports with a Logout back button and the division access, without Back to Main App', async () => {
    signedInAs(client);
    renderApp('/admin');
    expect(await viewHeading('Reports & Analytics')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Division access' })).toHaveTextContent('RTM/WR');
    expect(screen.queryByLabelText('Division')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Back to Main App/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin menu' })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Report generators' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it.each(['user-management', 'data-management', 'menu', 'service-reports', 'records-management'])(
    'refuses %s with the Access Restricted toast and stays on reports',
    async (view) => {
      const requests = signedInAs(client);
      renderApp(`/admin?view=${view}`);
      expect(await viewHeading('Reports & Analytics')).toBeInTheDocument();
      const toast = within(notifications());
      expect(toast.getByText('Access Restricted')).toBeInTheDocument();
      expect(toast.getByText("You don't have permission to access this section.")).toBeInTheDocument();
      await waitFor(() => expect(location()).toHaveTextContent(/^\/admin$/));
      expect(requests.some((r) => r.url.startsWith('/api/users'))).toBe(false);
    },
  );

  it('lets a Client change their password from the dashboard (Clients have no /purpose)', async () => {
    signedInAs(client);
    renderApp('/admin');
    await screen.findByRole('link', { name: 'Change password' });
    await userEvent.click(screen.getByRole('link', { name: 'Change password' }));
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/change-password$/));
  });

  it('lets a Client open a permitted report view, whose Back returns to reports', async () => {
    signedInAs(client);
    renderApp('/admin?view=sse-reports');
    expect(await viewHeading('SSE CoF Measurement')).toBeInTheDocument();
    expect(within(notifications()).queryByText('Access Restricted')).not.toBeInTheDocument();
    await back();
    expect(await viewHeading('Reports & Analytics')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });
});
