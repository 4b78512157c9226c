import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { USER_STORAGE_KEY } from '../../lib/storage-keys.js';
import { deferred, jsonResponse, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { client, technician } from '../../test/users.js';

const healthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0', demo: false });
const demoHealthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0', demo: true });

async function fillAndSubmit(employeeId = 'TECH001', password = 'secret') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Employee ID'), employeeId);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('Login screen', () => {
  it('shows the fields with their labels and placeholder', () => {
    stubFetch({ 'GET /api/health': healthy });
    renderApp('/login');
    expect(screen.getByLabelText('Employee ID')).toHaveAttribute('placeholder', 'Enter your Employee ID');
    expect(screen.getByLabelText('Employee ID')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  });

  it('shows both required messages for empty fields and sends nothing', async () => {
    const requests = stubFetch({ 'GET /api/health': healthy });
    renderApp('/');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Employee ID is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/auth/login')).toBe(false);
  });

  it("reads 'Signing In...' and is disabled while the request is pending, then goes to /purpose", async () => {
    const answer = deferred<Response>();
    const requests = stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () => answer.promise,
      'GET /api/auth/me': () => jsonResponse(200, { user: technician }),
    });
    renderApp('/login');
    await fillAndSubmit(' TECH001 ', 'secret');

    const busy = await screen.findByRole('button', { name: 'Signing In...' });
    expect(busy).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
    const login = requests.find((r) => r.url === '/api/auth/login');
    // The shared schema trims the ID before it is sent.
    expect(JSON.parse(login?.body ?? '{}')).toEqual({ employeeId: 'TECH001', password: 'secret' });

    answer.resolve(jsonResponse(200, { user: technician }));
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/purpose');
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? 'null')).toEqual(technician);
  });

  it('sends a Client to /admin after signing in', async () => {
    stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () => jsonResponse(200, { user: client }),
    });
    renderApp('/login');
    await fillAndSubmit('CLI001');

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin');
  });

  it("shows the 'Login Failed' toast for wrong credentials and stays on the form", async () => {
    stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () =>
        jsonResponse(401, { code: 'INVALID_CREDENTIALS', message: 'Invalid employee ID or password' }),
    });
    renderApp('/login');
    await fillAndSubmit();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login Failed');
    expect(alert).toHaveTextContent('Invalid credentials. Please try again.');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it("shows the server's message when sign-in is rate limited", async () => {
    stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () =>
        jsonResponse(429, { code: 'TOO_MANY_LOGIN_ATTEMPTS', message: 'Too many failed sign-in attempts. Wait 5 minutes' }),
    });
    renderApp('/login');
    await fillAndSubmit();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login Failed');
    expect(alert).toHaveTextContent('Too many failed sign-in attempts. Wait 5 minutes');
  });

  it('says the server cannot be reached when the network fails', async () => {
    stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderApp('/login');
    await fillAndSubmit();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login Failed');
    expect(alert).toHaveTextContent('Cannot reach the server');
  });

  it("shows 'Connected' when the health check passes", async () => {
    stubFetch({ 'GET /api/health': healthy });
    renderApp('/login');
    expect(await screen.findByText('Connected')).toBeInTheDocument();
  });

  it("shows 'Server unreachable' when the health check cannot reach the server", async () => {
    stubFetch({ 'GET /api/health': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/login');
    expect(await screen.findByText('Server unreachable')).toBeInTheDocument();
    expect(screen.queryByText('Connected')).not.toBeInTheDocument();
  });

  it('does not ask for demo accounts when the server says demo mode is off', async () => {
    const requests = stubFetch({ 'GET /api/health': healthy });
    renderApp('/login');
    await screen.findByText('Connected');
    expect(requests.some((r) => r.url === '/api/auth/demo-accounts')).toBe(false);
    expect(screen.queryByRole('heading', { name: 'Demo accounts' })).not.toBeInTheDocument();
  });

  it('hides the demo card when demo-accounts answers 404', async () => {
    const requests = stubFetch({
      'GET /api/health': demoHealthy,
      'GET /api/auth/demo-accounts': () => jsonResponse(404, { code: 'NOT_FOUND', message: 'Demo mode is off' }),
    });
    renderApp('/login');
    await screen.findByText('Connected');
    await waitFor(() => expect(requests.some((r) => r.url === '/api/auth/demo-accounts')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Demo accounts' })).not.toBeInTheDocument();
  });

  it('hides the demo card when there are no accounts', async () => {
    const requests = stubFetch({
      'GET /api/health': demoHealthy,
      'GET /api/auth/demo-accounts': () => jsonResponse(200, { accounts: [], password: '' }),
    });
    renderApp('/login');
    await screen.findByText('Connected');
    await waitFor(() => expect(requests.some((r) => r.url === '/api/auth/demo-accounts')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Demo accounts' })).not.toBeInTheDocument();
  });

  it('lists the demo accounts and password in demo mode, and fills the form from them', async () => {
    stubFetch({
      'GET /api/health': demoHealthy,
      'GET /api/auth/demo-accounts': () =>
        jsonResponse(200, {
          accounts: [
            { role: 'Technician', employeeId: 'DEMO-TECH', name: 'Demo Technician' },
            { role: 'Admin', employeeId: 'DEMO-ADMIN', name: 'Demo Admin' },
            { role: 'Client', employeeId: 'DEMO-CLIENT', name: 'Demo Client' },
          ],
          password: 'demo1234',
        }),
    });
    renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Demo accounts' })).toBeInTheDocument();
    expect(screen.getByText('DEMO-ADMIN')).toBeInTheDocument();
    expect(screen.getByText('DEMO-TECH')).toBeInTheDocument();
    expect(screen.getByText('DEMO-CLIENT')).toBeInTheDocument();
    expect(screen.getByText('demo1234')).toBeInTheDocument();

    await userEvent.click(screen.getByText('DEMO-TECH'));
    expect(screen.getByLabelText('Employee ID')).toHaveValue('DEMO-TECH');
    expect(screen.getByLabelText('Password')).toHaveValue('demo1234');
  });
});
