import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';
import { outboxStore } from './outbox-store.js';
import { makeRecord, storedAnswer, stubUploads } from './test-records.js';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const location = () => screen.getByTestId('location');
const expired = () => jsonResponse(401, { code: 'SESSION_EXPIRED', message: 'Your session has ended' });

describe('the outbox in the running app', () => {
  it("sends the signed-in technician's waiting records when the app starts, and the count goes away", async () => {
    await outboxStore().put(makeRecord({ curveNumber: 'mine' }));
    await outboxStore().put(makeRecord({ owner: 'TECH002', curveNumber: 'theirs' }));
    storeUser(technician);
    const uploads = stubUploads(() => storedAnswer('INS-1'), { user: technician });
    renderApp('/purpose');

    await waitFor(() => expect(uploads.map((u) => u.curveNumber)).toEqual(['mine']));
    await waitFor(() => expect(screen.queryByText(/waiting to be sent/)).not.toBeInTheDocument());
    expect(screen.getByText('1 record of another user stays on this phone until they sign in.')).toBeInTheDocument();
    expect((await outboxStore().list()).map((r) => r.ownerEmployeeId)).toEqual(['TECH002']);
  });

  it('sends the records queued offline when the network comes back', async () => {
    const record = makeRecord({ attempts: 3, nextAttemptAt: Date.now() + 600_000 });
    await outboxStore().put(record);
    storeUser(technician);
    const uploads = stubUploads(() => storedAnswer('INS-1'), { user: technician });
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp('/purpose');
    expect(await screen.findByRole('link', { name: /1 record waiting to be sent/ })).toHaveAttribute('href', '/outbox');
    expect(uploads).toHaveLength(0);

    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });

    // The network is back: the backoff of a record that failed offline does not hold it.
    await waitFor(() => expect(uploads).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText(/waiting to be sent/)).not.toBeInTheDocument());
    expect(uploads[0]?.clientSubmissionId).toBe(record.clientSubmissionId);
  });

  it('keeps the records when the session has ended, asks for a sign-in, and sends them after it', async () => {
    await outboxStore().put(makeRecord({ curveNumber: 'first' }));
    await outboxStore().put(makeRecord({ curveNumber: 'second' }));
    storeUser(technician);
    let signedIn = false;
    const uploads = stubUploads(() => (signedIn ? storedAnswer('INS-1') : expired()), {
      user: technician,
      routes: {
        'POST /api/auth/login': () => {
          signedIn = true;
          return jsonResponse(200, { user: technician });
        },
      },
    });
    renderApp('/purpose');

    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(uploads).toHaveLength(1);
    expect((await outboxStore().list()).map((r) => r.status)).toEqual(['needs-sign-in', 'needs-sign-in']);

    await userEvent.type(screen.getByLabelText('Employee ID'), 'TECH001');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(uploads.map((u) => u.curveNumber)).toEqual(['first', 'first', 'second']));
    await waitFor(async () => expect(await outboxStore().list()).toEqual([]));
  });

  it("does not send another technician's records after they sign out and someone else signs in", async () => {
    await outboxStore().put(makeRecord({ owner: 'TECH002', curveNumber: 'theirs' }));
    const uploads = stubUploads(() => storedAnswer('INS-1'), {
      routes: { 'POST /api/auth/login': () => jsonResponse(200, { user: technician }) },
    });
    renderApp('/login');
    await userEvent.type(screen.getByLabelText('Employee ID'), 'TECH001');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('1 record of another user stays on this phone until they sign in.')).toBeInTheDocument();
    expect(uploads).toHaveLength(0);
  });
});

describe('a technician who must choose a new password', () => {
  const held = { ...technician, phone: '9876543210', mustChangePassword: true };
  const passwordChangeRequired = () =>
    jsonResponse(403, { code: 'PASSWORD_CHANGE_REQUIRED', message: 'Please choose a new password before you continue' });

  async function chooseNewPassword(current: string) {
    await userEvent.type(screen.getByLabelText('Current password'), current);
    await userEvent.type(screen.getByLabelText('New password'), 'my own secret 1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'my own secret 1');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
  }

  it('keeps the waiting records on the phone, counted, and sends them once the new password is chosen', async () => {
    await outboxStore().put(makeRecord({ curveNumber: 'first' }));
    await outboxStore().put(makeRecord({ curveNumber: 'second', status: 'needs-sign-in', lastError: 'Your session has ended.' }));
    storeUser(held);
    let passwordChosen = false;
    const uploads = stubUploads(() => (passwordChosen ? storedAnswer('INS-1') : passwordChangeRequired()), {
      user: held,
      routes: {
        'POST /api/auth/change-password': () => {
          passwordChosen = true;
          return jsonResponse(200, { user: { ...held, mustChangePassword: false } });
        },
      },
    });
    renderApp('/purpose');

    await waitFor(() => expect(location()).toHaveTextContent(/^\/change-password$/));
    expect(await screen.findByText('2 records waiting to be sent.')).toBeInTheDocument();
    // Nothing is spent on uploads the server would refuse.
    await act(async () => {});
    expect(uploads).toHaveLength(0);
    expect(await outboxStore().list()).toHaveLength(2);

    await chooseNewPassword('9876543210');

    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
    await waitFor(() => expect(uploads.map((u) => u.curveNumber)).toEqual(['first', 'second']));
    await waitFor(async () => expect(await outboxStore().list()).toEqual([]));
  });

  it('keeps a record the server answers with PASSWORD_CHANGE_REQUIRED waiting, not failed, and goes to choose the password', async () => {
    const record = makeRecord();
    await outboxStore().put(record);
    // The copy on the phone predates the Admin's reset; the server knows better.
    storeUser(technician);
    let meCalls = 0;
    let passwordChosen = false;
    const uploads = stubUploads(() => (passwordChosen ? storedAnswer('INS-2') : passwordChangeRequired()), {
      routes: {
        'GET /api/auth/me': () => {
          meCalls += 1;
          return jsonResponse(200, { user: meCalls === 1 || passwordChosen ? technician : held });
        },
        'POST /api/auth/change-password': () => {
          passwordChosen = true;
          return jsonResponse(200, { user: technician });
        },
      },
    });
    renderApp('/purpose');

    await waitFor(() => expect(location()).toHaveTextContent(/^\/change-password$/));
    expect(uploads).toHaveLength(1);
    expect(await outboxStore().get(record.localId)).toMatchObject({
      status: 'needs-sign-in',
      attempts: 0,
      lastError: 'Waiting for your new password. It is sent once you have chosen one.',
    });
    expect(screen.getByText('1 record waiting to be sent.')).toBeInTheDocument();

    await chooseNewPassword('admin chose it');

    await waitFor(() => expect(uploads).toHaveLength(2));
    await waitFor(async () => expect(await outboxStore().list()).toEqual([]));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
  });
});

describe('logout with records waiting', () => {
  async function signedInWithWaitingRecords(count: number) {
    for (let i = 0; i < count; i++) await outboxStore().put(makeRecord());
    storeUser(technician);
    const requests: string[] = [];
    stubUploads(() => expired(), {
      user: technician,
      routes: {
        'POST /api/auth/logout': () => {
          requests.push('logout');
          return jsonResponse(200, { success: true });
        },
      },
    });
    // Offline: the records stay waiting while the test signs out.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp('/purpose');
    await screen.findByRole('link', { name: new RegExp(`${count} records? waiting to be sent`) });
    return requests;
  }

  it('asks first, and Cancel keeps the technician signed in', async () => {
    const requests = await signedInWithWaitingRecords(2);
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Records not sent' });
    expect(dialog).toHaveTextContent(
      '2 records have not been sent yet. They stay on this phone and will be sent after your next sign-in. Sign out anyway?',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/purpose$/);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled();
    expect(requests).toEqual([]);
  });

  it('signs out on confirmation and never deletes the records', async () => {
    const requests = await signedInWithWaitingRecords(1);
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('1 record has not been sent yet. It stays on this phone');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Out' }));

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(requests).toEqual(['logout']);
    expect(await outboxStore().list()).toHaveLength(1);
  });

  it('does not ask when nothing is waiting', async () => {
    storeUser(technician);
    stubUploads(() => storedAnswer('INS-1'), { user: technician });
    renderApp('/purpose');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

describe('the count in the flow screens', () => {
  it('shows a badge leading to the outbox in the header of the entry form, with the refused ones named', async () => {
    await outboxStore().put(makeRecord());
    await outboxStore().put(makeRecord({ status: 'failed', lastError: 'Curve not found' }));
    storeUser(technician);
    stubUploads(() => storedAnswer('INS-1'), { user: technician });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp('/data-entry?type=CoF');

    const badge = await screen.findByRole('link', { name: '2 records waiting to be sent, 1 failed' });
    expect(badge).toHaveTextContent('2');
    await userEvent.click(badge);
    expect(await screen.findByRole('heading', { name: 'Outbox' })).toBeInTheDocument();
  });

  it('shows no badge when nothing is waiting', async () => {
    storeUser(technician);
    stubUploads(() => storedAnswer('INS-1'), { user: technician });
    renderApp('/data-entry?type=CoF');
    await screen.findByRole('heading', { name: 'CoF Measurement' });
    await act(async () => {});
    expect(screen.queryByRole('link', { name: /waiting to be sent/ })).not.toBeInTheDocument();
  });
});
