import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import type { ManagedUser } from '../../../../../common/schemas/user.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, client, storeUser, technician } from '../../../test/users.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function asAdmin(routes: Record<string, Handler>) {
  storeUser(admin);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: admin }),
    ...routes,
  });
}

/** A user as the Admin's list answers them: switched on and not a demo account unless told. */
const managed = (user: PublicUser, extra: Partial<ManagedUser> = {}): ManagedUser => ({ active: true, deactivatedAt: null, isDemo: false, ...user, ...extra });
const listWith = (users: Array<PublicUser | ManagedUser>) => () => jsonResponse(200, { users: users.map((u) => managed(u)) });
const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const addForm = () => within(screen.getByRole('form', { name: 'Add User' }));
const resetForm = () => within(screen.getByRole('form', { name: 'Reset Password' }));
const posts = (requests: RecordedRequest[], url: string) => requests.filter((r) => r.method === 'POST' && r.url === url);

async function openUserManagement() {
  renderApp('/admin?view=user-management');
  await screen.findByRole('heading', { level: 2, name: 'User Management' });
}

async function fillAddUser({ employeeId = 'TECH042', name = 'Neha Singh', phone = '9876543210' } = {}) {
  const form = addForm();
  if (employeeId) await userEvent.type(form.getByLabelText('Employee ID'), employeeId);
  if (name) await userEvent.type(form.getByLabelText('Name'), name);
  if (phone) await userEvent.type(form.getByLabelText('Phone'), phone);
}

describe('user list', () => {
  it('lists users with name, employee ID and a highlighted Admin role badge', async () => {
    asAdmin({ 'GET /api/users': listWith([admin, technician, client]) });
    await openUserManagement();
    const list = await screen.findByRole('list', { name: 'Users' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const [adminRow, techRow, clientRow] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(adminRow).toHaveTextContent('Anita Admin');
    expect(adminRow).toHaveTextContent('ADM001');
    expect(within(techRow).getByText('Technician')).toBeInTheDocument();
    expect(clientRow).toHaveTextContent('RTM/WR');
    // Admin stands out; the others do not share its colour.
    expect(within(adminRow).getByText('Admin')).toHaveClass('bg-red-700');
    expect(within(techRow).getByText('Technician')).not.toHaveClass('bg-red-700');
    expect(screen.queryByText('No users found. Add a new user to get started.')).not.toBeInTheDocument();
  });

  it('marks the users who have not yet chosen their own password', async () => {
    asAdmin({ 'GET /api/users': listWith([admin, { ...technician, mustChangePassword: true }, { ...client, mustChangePassword: false }]) });
    await openUserManagement();
    const list = await screen.findByRole('list', { name: 'Users' });
    const [adminRow, techRow, clientRow] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement, HTMLElement];
    expect(techRow).toHaveTextContent('Password not yet chosen');
    expect(adminRow).not.toHaveTextContent('Password not yet chosen');
    expect(clientRow).not.toHaveTextContent('Password not yet chosen');
  });

  it('shows the empty state when there are no users', async () => {
    asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    expect(await screen.findByText('No users found. Add a new user to get started.')).toBeInTheDocument();
  });
});

describe('add user', () => {
  it('offers Technician, Admin and Client with Technician preselected, and a division only for a Client', async () => {
    asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    const role = addForm().getByLabelText('Role');
    expect([...(role as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Technician', 'Admin', 'Client']);
    expect(role).toHaveValue('Technician');
    expect(addForm().queryByLabelText('Division Access')).not.toBeInTheDocument();
    await userEvent.selectOptions(role, 'Client');
    const division = addForm().getByLabelText('Division Access') as HTMLSelectElement;
    expect([...division.options].filter((o) => o.value !== '').map((o) => o.value)).toEqual([
      'RTM/WR',
      'FZR/NR',
      'BRC/WR',
      'NDLS/NR',
      'JBP/WCR',
    ]);
  });

  it.each(['employeeId', 'name', 'phone'] as const)('shows the Validation Error toast without %s and sends nothing', async (missing) => {
    const requests = asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    await fillAddUser({ [missing]: '' });
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(notifications().getByText('Validation Error')).toBeInTheDocument();
    expect(notifications().getByText('Please fill in all required fields')).toBeInTheDocument();
    expect(posts(requests, '/api/users')).toHaveLength(0);
  });

  it('asks a Client for a division before sending', async () => {
    const requests = asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    await fillAddUser();
    await userEvent.selectOptions(addForm().getByLabelText('Role'), 'Client');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(notifications().getByText('Validation Error')).toBeInTheDocument();
    expect(posts(requests, '/api/users')).toHaveLength(0);
  });

  it('shows Adding... while sending, then User Added, and refreshes the list', async () => {
    const added: PublicUser = { ...technician, id: 42, employeeId: 'CLI042', name: 'Neha Singh', role: 'Client', divisionAccess: 'BRC/WR' };
    const answer = deferred<Response>();
    let users: PublicUser[] = [];
    const requests = asAdmin({
      'GET /api/users': () => jsonResponse(200, { users: users.map((u) => managed(u)) }),
      'POST /api/users': () => answer.promise,
    });
    await openUserManagement();
    await screen.findByText('No users found. Add a new user to get started.');
    await fillAddUser({ employeeId: 'CLI042' });
    await userEvent.selectOptions(addForm().getByLabelText('Role'), 'Client');
    await userEvent.selectOptions(addForm().getByLabelText('Division Access'), 'BRC/WR');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));

    expect(await screen.findByRole('button', { name: 'Adding...' })).toBeDisabled();
    const [post] = posts(requests, '/api/users');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      employeeId: 'CLI042',
      name: 'Neha Singh',
      phone: '9876543210',
      role: 'Client',
      divisionAccess: 'BRC/WR',
    });

    users = [added];
    answer.resolve(jsonResponse(201, { user: added }));
    expect(await notifications().findByText('User Added')).toBeInTheDocument();
    // The server makes them choose their own password at the first sign-in: the Admin is told.
    expect(notifications().getByText(/can sign in with their phone number, then chooses their own password\./)).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Users' })).toHaveTextContent('CLI042');
    expect(screen.getByRole('button', { name: 'Add User' })).toBeEnabled();
    expect(addForm().getByLabelText('Employee ID')).toHaveValue('');
  });

  it('sends no division for a Technician', async () => {
    const requests = asAdmin({
      'GET /api/users': listWith([]),
      'POST /api/users': () => jsonResponse(201, { user: { ...technician, id: 7, employeeId: 'TECH042' } }),
    });
    await openUserManagement();
    await fillAddUser();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await notifications().findByText('User Added');
    expect(JSON.parse(posts(requests, '/api/users')[0]?.body ?? '{}')).toEqual({
      employeeId: 'TECH042',
      name: 'Neha Singh',
      phone: '9876543210',
      role: 'Technician',
    });
  });

  it('explains a malformed phone under the field without a request', async () => {
    const requests = asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    await fillAddUser({ phone: '12345' });
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() =>
      expect(addForm().getByLabelText('Phone')).toHaveAccessibleDescription('Phone must be 10 to 15 digits, optionally starting with +'),
    );
    expect(posts(requests, '/api/users')).toHaveLength(0);
  });

  it('judges the other fields by the shared contract too, with its messages, before sending', async () => {
    const requests = asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    await fillAddUser({ employeeId: 'TECH 042' });
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() =>
      expect(addForm().getByLabelText('Employee ID')).toHaveAccessibleDescription("Employee ID may contain only letters, digits, '.', '_' and '-'"),
    );
    expect(posts(requests, '/api/users')).toHaveLength(0);
  });

  it('puts the field messages of a 400 answer under the inputs', async () => {
    asAdmin({
      'GET /api/users': listWith([]),
      'POST /api/users': () =>
        jsonResponse(400, { code: 'VALIDATION_FAILED', message: 'The request is not valid', fields: { name: 'Name must be at most 100 characters' } }),
    });
    await openUserManagement();
    await fillAddUser();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await notifications().findByRole('alert')).toHaveTextContent('Failed to add user: The request is not valid');
    expect(addForm().getByLabelText('Name')).toHaveAccessibleDescription('Name must be at most 100 characters');
  });

  it('shows Error / Failed to add user with the server message', async () => {
    asAdmin({
      'GET /api/users': listWith([]),
      'POST /api/users': () => jsonResponse(409, { code: 'CONFLICT', message: 'Employee ID TECH042 already exists' }),
    });
    await openUserManagement();
    await fillAddUser();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const toast = await notifications().findByRole('alert');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent('Failed to add user: Employee ID TECH042 already exists');
    expect(addForm().getByLabelText('Employee ID')).toHaveValue('TECH042');
  });

  it('says only Failed to add user when the network is down', async () => {
    asAdmin({
      'GET /api/users': listWith([]),
      'POST /api/users': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await openUserManagement();
    await fillAddUser();
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Failed to add user')).toBeInTheDocument();
  });
});

describe('reset password', () => {
  it.each([
    ['', 'newpassword1'],
    ['TECH001', ''],
  ])('shows the Validation Error toast for employee "%s" / password "%s" and sends nothing', async (employeeId, password) => {
    const requests = asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    if (employeeId) await userEvent.type(resetForm().getByLabelText('Employee ID'), employeeId);
    if (password) await userEvent.type(resetForm().getByLabelText('New Password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(notifications().getByText('Validation Error')).toBeInTheDocument();
    expect(notifications().getByText('Please fill in all required fields')).toBeInTheDocument();
    expect(posts(requests, '/api/auth/reset-password')).toHaveLength(0);
  });

  it('shows Resetting... while sending, then Password Reset', async () => {
    const answer = deferred<Response>();
    const requests = asAdmin({
      'GET /api/users': listWith([]),
      'POST /api/auth/reset-password': () => answer.promise,
    });
    await openUserManagement();
    await userEvent.type(resetForm().getByLabelText('Employee ID'), 'TECH001');
    await userEvent.type(resetForm().getByLabelText('New Password'), 'newpassword1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('button', { name: 'Resetting...' })).toBeDisabled();
    expect(JSON.parse(posts(requests, '/api/auth/reset-password')[0]?.body ?? '{}')).toEqual({
      employeeId: 'TECH001',
      newPassword: 'newpassword1',
    });
    answer.resolve(jsonResponse(200, { success: true }));
    expect(await notifications().findByText('Password Reset')).toBeInTheDocument();
    expect(notifications().getByText(/They choose their own at their next sign-in\./)).toBeInTheDocument();
    expect(resetForm().getByLabelText('New Password')).toHaveValue('');
  });

  it('shows Error / Failed to reset password with the server message', async () => {
    asAdmin({
      'GET /api/users': listWith([]),
      'POST /api/auth/reset-password': () => jsonResponse(404, { code: 'NOT_FOUND', message: 'User NOPE not found' }),
    });
    await openUserManagement();
    await userEvent.type(resetForm().getByLabelText('Employee ID'), 'NOPE');
    await userEvent.type(resetForm().getByLabelText('New Password'), 'newpassword1');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    const toast = await notifications().findByRole('alert');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent('Failed to reset password: User NOPE not found');
  });

  it('explains a too-short password under the field without a request', async () => {
    const requests = asAdmin({ 'GET /api/users': listWith([]) });
    await openUserManagement();
    await userEvent.type(resetForm().getByLabelText('Employee ID'), 'TECH001');
    await userEvent.type(resetForm().getByLabelText('New Password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(resetForm().getByLabelText('New Password')).toHaveAccessibleDescription('Password must be at least 8 characters'));
    expect(posts(requests, '/api/auth/reset-password')).toHaveLength(0);
  });
});

describe('switching an account off and on', () => {
  const ravi = managed(technician, { id: 11 });
  const row = async (name: string) => {
    const list = await screen.findByRole('list', { name: 'Users' });
    const item = within(list).getAllByRole('listitem').find((li) => li.textContent?.includes(name));
    if (!item) throw new Error(`no row for ${name}`);
    return within(item);
  };

  it('asks first, shows Deactivating..., then User Deactivated and the Inactive mark', async () => {
    const answer = deferred<Response>();
    let users: ManagedUser[] = [managed(admin), ravi];
    const requests = asAdmin({
      'GET /api/users': () => jsonResponse(200, { users }),
      'POST /api/users/TECH001/deactivate': () => answer.promise,
    });
    await openUserManagement();
    await userEvent.click((await row('Ravi Kumar')).getByRole('button', { name: 'Deactivate Ravi Kumar (TECH001)' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Deactivate Ravi Kumar?' });
    expect(dialog).toHaveTextContent('Ravi Kumar (TECH001) is signed out at once on every device and cannot sign in until an Admin reactivates the account.');
    // Cancel has the focus: a slip of the thumb does not switch anyone off.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(posts(requests, '/api/users/TECH001/deactivate')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await within(dialog).findByRole('button', { name: 'Deactivating...' })).toBeDisabled();
    expect(posts(requests, '/api/users/TECH001/deactivate')).toHaveLength(1);

    const off = { ...ravi, active: false, deactivatedAt: '2026-11-26T10:00:00.000Z' };
    users = [managed(admin), off];
    answer.resolve(jsonResponse(200, { user: off }));
    expect(await notifications().findByText('User Deactivated')).toBeInTheDocument();
    expect(notifications().getByText('Ravi Kumar (TECH001) is signed out and can no longer sign in.')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await (await row('Ravi Kumar')).findByText('Inactive')).toBeInTheDocument();
    expect((await row('Ravi Kumar')).getByRole('button', { name: 'Reactivate Ravi Kumar (TECH001)' })).toBeEnabled();
  });

  it('reactivates at once, and says why when the server refuses', async () => {
    asAdmin({
      'GET /api/users': listWith([admin, { ...ravi, active: false, deactivatedAt: '2026-11-26T10:00:00.000Z' }]),
      'POST /api/users/TECH001/reactivate': () =>
        jsonResponse(403, { code: 'FORBIDDEN', message: 'Only an owner may create, reset or switch off an owner account' }),
    });
    await openUserManagement();
    await userEvent.click((await row('Ravi Kumar')).getByRole('button', { name: 'Reactivate Ravi Kumar (TECH001)' }));
    expect(
      await notifications().findByText('Failed to reactivate user: Only an owner may create, reset or switch off an owner account'),
    ).toBeInTheDocument();
  });

  it('offers nothing on your own account nor, to a plain Admin, on an owner account; marks demo accounts', async () => {
    const owner = managed({ ...admin, id: 20, employeeId: 'OWN001', name: 'Olga Owner', isOwner: true });
    asAdmin({ 'GET /api/users': () => jsonResponse(200, { users: [managed(admin), owner, managed(technician, { id: 12, isDemo: true })] }) });
    await openUserManagement();
    expect((await row('Anita Admin')).queryByRole('button')).not.toBeInTheDocument();
    expect((await row('Olga Owner')).queryByRole('button')).not.toBeInTheDocument();
    expect((await row('Ravi Kumar')).getByText('Demo account')).toBeInTheDocument();
    expect((await row('Ravi Kumar')).getByRole('button', { name: 'Deactivate Ravi Kumar (TECH001)' })).toBeInTheDocument();
  });
});
