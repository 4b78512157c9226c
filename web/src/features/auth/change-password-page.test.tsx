import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import { USER_STORAGE_KEY } from '../../lib/storage-keys.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { admin, client, storeUser, technician } from '../../test/users.js';

const healthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' });
const location = () => screen.getByTestId('location');

// An employee ID long enough to be a valid password, so the employee-ID rule is what refuses it.
const held: PublicUser = { ...technician, employeeId: 'TECH00123', phone: '+919876543210', mustChangePassword: true };

function signedInAs(user: PublicUser, changePassword?: (request: RecordedRequest) => Response | Promise<Response>) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': healthy,
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'POST /api/auth/logout': () => jsonResponse(200, { success: true }),
    ...(changePassword ? { 'POST /api/auth/change-password': changePassword } : {}),
  });
}

async function fill({ current = '', next = '', confirm = next }: { current?: string; next?: string; confirm?: string }) {
  if (current) await userEvent.type(screen.getByLabelText('Current password'), current);
  if (next) await userEvent.type(screen.getByLabelText('New password'), next);
  if (confirm) await userEvent.type(screen.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
}

const changeRequests = (requests: RecordedRequest[]) => requests.filter((r) => r.url === '/api/auth/change-password');

describe('a user who must choose a new password', () => {
  it.each(['/purpose', '/admin', '/data-entry?type=CoF', '/outbox', '/machine-dashboard', '/', '/login'])(
    'is sent from %s to the change-password screen',
    async (path) => {
      signedInAs(held);
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
      expect(location()).toHaveTextContent(/^\/change-password$/);
      expect(screen.getByText('Your password was set by an administrator. Choose your own password to continue.')).toBeInTheDocument();
    },
  );

  it('lands there straight after signing in', async () => {
    stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () => jsonResponse(200, { user: held }),
    });
    renderApp('/login');
    await userEvent.type(screen.getByLabelText('Employee ID'), 'TECH00123');
    await userEvent.type(screen.getByLabelText('Password'), '+919876543210');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/change-password$/);
  });

  it('states the rules above the fields, ties every label to its input, and offers Sign Out instead of Back', async () => {
    signedInAs(held);
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    expect(screen.getByText('At least 8 characters, and not your employee ID or phone number.')).toBeInTheDocument();
    for (const label of ['Current password', 'New password', 'Confirm new password']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('type', 'password');
    }
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/At least 8 characters/);
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Back/ })).not.toBeInTheDocument();
  });

  it('Sign Out ends the session and goes to the login screen', async () => {
    const requests = signedInAs(held);
    renderApp('/change-password');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST' && r.url === '/api/auth/logout')).toBe(true);
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });
});

describe('the change-password form', () => {
  it.each([
    [{}, { 'Current password': 'Current password is required', 'New password': 'New password is required', 'Confirm new password': 'Please confirm the new password' }],
    [{ current: 'old one 123', next: 'short' }, { 'New password': 'Password must be at least 8 characters' }],
    [{ current: 'old one 123', next: 'tech00123' }, { 'New password': 'The new password must not be your employee ID' }],
    [{ current: 'old one 123', next: '98765 43210' }, { 'New password': 'The new password must not be your phone number' }],
    [{ current: 'old one 123', next: 'old one 123' }, { 'New password': 'The new password must be different from the current one' }],
    [{ current: 'old one 123', next: 'brand new 456', confirm: 'brand new 457' }, { 'Confirm new password': 'The passwords do not match' }],
  ])('refuses %o with the message under the field, and sends nothing', async (values, messages) => {
    const requests = signedInAs(held, () => jsonResponse(500, {}));
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill(values);

    for (const [label, message] of Object.entries(messages)) {
      await waitFor(() => expect(screen.getByLabelText(label)).toHaveAccessibleDescription(expect.stringContaining(message)));
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(changeRequests(requests)).toHaveLength(0);
  });

  it('shows the server’s field errors under their fields (a wrong current password)', async () => {
    const requests = signedInAs(held, () =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: 'currentPassword: Current password is incorrect',
        fields: { currentPassword: 'Current password is incorrect' },
      }),
    );
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill({ current: 'not the one', next: 'brand new 456' });

    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Current password is incorrect'));
    expect(screen.getByLabelText('Current password')).toHaveFocus();
    expect(location()).toHaveTextContent(/^\/change-password$/);
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? 'null')).toMatchObject({ mustChangePassword: true });
    expect(changeRequests(requests)).toHaveLength(1);
  });

  it('shows a rule the server applies under the new password', async () => {
    signedInAs(held, () =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: 'newPassword: The new password must not be your phone number',
        fields: { newPassword: 'The new password must not be your phone number' },
      }),
    );
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill({ current: 'whatever 1', next: 'looks fine 22' });
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(/must not be your phone number/));
  });

  it("shows the server's message when too many attempts were made", async () => {
    signedInAs(held, () =>
      jsonResponse(429, { code: 'TOO_MANY_LOGIN_ATTEMPTS', message: 'Too many failed sign-in attempts. Please wait 15 minutes and try again' }),
    );
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill({ current: 'whatever 1', next: 'looks fine 22' });
    expect(await screen.findByText('Too many failed sign-in attempts. Please wait 15 minutes and try again')).toBeInTheDocument();
  });

  it("reads 'Changing...' while busy, sends only the two passwords, then goes home with the new user stored", async () => {
    const answer = deferred<Response>();
    const requests = signedInAs(held, () => answer.promise);
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill({ current: '+919876543210', next: 'my own secret 1' });

    expect(await screen.findByRole('button', { name: 'Changing...' })).toBeDisabled();
    expect(JSON.parse(changeRequests(requests)[0]?.body ?? '{}')).toEqual({ currentPassword: '+919876543210', newPassword: 'my own secret 1' });

    answer.resolve(jsonResponse(200, { user: { ...held, mustChangePassword: false } }));
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/purpose$/);
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? 'null')).toMatchObject({ employeeId: 'TECH00123', mustChangePassword: false });
    expect(screen.getByText('Password Changed')).toBeInTheDocument();
  });
});

describe('changing the password of one’s own accord', () => {
  it('is offered on the purpose screen, with Back, and returns there afterwards', async () => {
    signedInAs(technician, () => jsonResponse(200, { user: { ...technician, mustChangePassword: false } }));
    renderApp('/purpose');
    await userEvent.click(await screen.findByRole('link', { name: 'Change password' }));

    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(screen.queryByText(/set by an administrator/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Back/ })).toBeInTheDocument();
    await fill({ current: 'old one 123', next: 'new one 456' });
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
  });

  it('an Admin finds it on the purpose screen too; a Client returns to /admin afterwards', async () => {
    signedInAs(admin);
    const first = renderApp('/purpose');
    expect(await screen.findByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/change-password');
    first.unmount();

    signedInAs(client, () => jsonResponse(200, { user: client }));
    renderApp('/change-password');
    await screen.findByRole('heading', { name: 'Change Password' });
    await fill({ current: 'old one 123', next: 'new one 456' });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
  });
});
