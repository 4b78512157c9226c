import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { INSPECTION_ENTRY_KEY, SUBMISSION_RESULT_KEY, USER_STORAGE_KEY } from '../lib/storage-keys.js';
import { jsonResponse, stubFetch } from '../test/fetch-stub.js';
import { renderApp, renderScreen } from '../test/render-app.js';
import { admin, client, storeUser, technician } from '../test/users.js';

const healthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' });

function signedInAs(user: PublicUser) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': healthy,
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'POST /api/auth/logout': () => jsonResponse(200, { success: true }),
  });
}

const location = () => screen.getByTestId('location');


/**
 * The camera screen loads lazily behind a frame with its own Back: a click landing as the
 * frame is swapped for the screen would be lost on a busy machine, so wait for the screen.
 */
async function cameraLoaded(): Promise<void> {
  await waitFor(() => expect(screen.queryByText('Loading camera...')).not.toBeInTheDocument());
}

describe('route guards', () => {
  it.each(['/purpose', '/data-entry?type=CoF', '/admin', '/machine-dashboard', '/success'])(
    'sends an anonymous visitor from %s to /login',
    async (path) => {
      stubFetch({ 'GET /api/health': healthy });
      await renderScreen(path);
      await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
      expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    },
  );

  it.each(['/admin', '/machine-dashboard'])('sends a Technician from %s to /purpose', async (path) => {
    signedInAs(technician);
    await renderScreen(path);
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
  });

  it.each(['/purpose', '/data-entry', '/service-details'])('sends a Client from %s to /admin', async (path) => {
    signedInAs(client);
    await renderScreen(path);
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/admin$/));
  });

  it('sends a signed-in Technician from / to /purpose and a Client from /login to /admin', async () => {
    signedInAs(technician);
    const first = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    first.unmount();

    storeUser(client);
    await renderScreen('/login');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it('lets an Admin open the machine dashboard, whose Back goes to /admin', async () => {
    signedInAs(admin);
    await renderScreen('/machine-dashboard');
    expect(await screen.findByRole('heading', { name: 'Machine Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });

  it('shows the 404 page for an unknown path', async () => {
    stubFetch({});
    await renderScreen('/no-such-page');
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
  });

  it.each(['/review', '/camera'])('sends %s back to /purpose without a stored entry', async (path) => {
    signedInAs(technician);
    await renderScreen(path);
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
  });

  it('opens /review when an entry is stored', async () => {
    signedInAs(technician);
    sessionStorage.setItem(INSPECTION_ENTRY_KEY, JSON.stringify({ type: 'Service', date: '2025-01-01' }));
    await renderScreen('/review');
    expect(screen.getByRole('heading', { name: 'Review' })).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 4')).toBeInTheDocument();
  });

  it('sends /success back to /purpose without a stored result', async () => {
    signedInAs(technician);
    await renderScreen('/success');
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
  });
});

describe('field screens', () => {
  it('shows Service with 4 steps by default and goes back to /purpose?type=Service', async () => {
    signedInAs(technician);
    await renderScreen('/data-entry');
    expect(screen.getByRole('heading', { name: 'Service Inspection' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent('/purpose?type=Service'));
  });

  it('shows CoF with 3 steps', async () => {
    signedInAs(technician);
    await renderScreen('/data-entry?type=CoF');
    expect(screen.getByRole('heading', { name: 'CoF Measurement' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
  });

  it('sends the camera Back to the CoF entry form for a CoF entry', async () => {
    signedInAs(technician);
    sessionStorage.setItem(INSPECTION_ENTRY_KEY, JSON.stringify({ type: 'CoF' }));
    await renderScreen('/camera');
    await cameraLoaded();
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent('/data-entry?type=CoF'));
  });

  it('sends the camera Back to service details for a Service entry', async () => {
    signedInAs(technician);
    sessionStorage.setItem(INSPECTION_ENTRY_KEY, JSON.stringify({ type: 'Service' }));
    await renderScreen('/camera');
    await cameraLoaded();
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
  });

  it('clears the stored result when leaving the success screen', async () => {
    signedInAs(technician);
    sessionStorage.setItem(SUBMISSION_RESULT_KEY, JSON.stringify({ recordId: 'INS-42', fileName: 'a.jpg' }));
    await renderScreen('/success');
    expect(screen.getByText('INS-42')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Return to Home' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
    expect(sessionStorage.getItem(SUBMISSION_RESULT_KEY)).toBeNull();
  });
});

describe('purpose screen', () => {
  it('shows the user, both purposes and no Admin Panel for a Technician', async () => {
    signedInAs(technician);
    await renderScreen('/purpose');
    expect(screen.getByText('Ravi Kumar')).toBeInTheDocument();
    expect(screen.getByText(/Technician/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Service Inspection/ })).toHaveAttribute('href', '/data-entry?type=Service');
    expect(screen.getByRole('link', { name: /Every 15 days routine check/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /CoF Measurement/ })).toHaveAttribute('href', '/data-entry?type=CoF');
    expect(screen.getByRole('link', { name: /Every 30 days friction test/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('offers the language switch in the header, the language shown chosen', async () => {
    signedInAs(technician);
    await renderScreen('/purpose');
    const languages = within(screen.getByRole('banner')).getByRole('group', { name: 'Language' });
    expect(within(languages).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(languages).getByRole('button', { name: 'हिंदी' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('gives an Admin the Admin Panel button to /admin', async () => {
    signedInAs(admin);
    await renderScreen('/purpose');
    await userEvent.click(screen.getByRole('button', { name: 'Admin Panel' }));
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Back to Main App/ }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
  });

  it('logs out: calls the server, forgets the user and returns to the login', async () => {
    const requests = signedInAs(technician);
    await renderScreen('/purpose');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/$/));
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(requests.some((r) => r.method === 'POST' && r.url === '/api/auth/logout')).toBe(true);
  });

  it('still logs out when the network is down', async () => {
    storeUser(technician);
    stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/logout': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await renderScreen('/purpose');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });
});

describe('admin screen for a Client', () => {
  it('shows the division access, no Back to Main App, and a Logout back button', async () => {
    signedInAs(client);
    await renderScreen('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('RTM/WR')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Back to Main App/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });
});
