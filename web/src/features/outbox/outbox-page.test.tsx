import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';
import { outboxStore } from './outbox-store.js';
import { PASSWORD_CHANGE_MESSAGE } from './send-record.js';
import { makeRecord, storedAnswer, stubUploads } from './test-records.js';

function spyOnObjectUrls() {
  let n = 0;
  return {
    created: vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:thumb-${++n}`),
    revoked: vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined),
  };
}

let objectUrls: ReturnType<typeof spyOnObjectUrls>;

beforeEach(() => {
  objectUrls = spyOnObjectUrls();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

/** Two records of the signed-in technician (one refused by the server) and one of another user. */
async function seedOutbox() {
  const waiting = makeRecord({ curveNumber: '42', createdAt: Date.UTC(2025, 2, 4, 5, 30), lastError: 'No network connection.', attempts: 2 });
  const refused = makeRecord({ curveNumber: '43', createdAt: Date.UTC(2025, 2, 4, 6, 0), status: 'failed', lastError: 'Curve not found' });
  const theirs = makeRecord({ owner: 'TECH002', curveNumber: '99' });
  for (const record of [waiting, refused, theirs]) await outboxStore().put(record);
  return { waiting, refused, theirs };
}

async function openOutbox(answer: Parameters<typeof stubUploads>[0] = () => storedAnswer('INS-1')) {
  storeUser(technician);
  const uploads = stubUploads(answer, { user: technician });
  const seeded = await seedOutbox();
  // Offline, so the app-start drain leaves the records for the test to look at.
  const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const view = renderApp('/outbox');
  const list = await screen.findByRole('list', { name: 'Records waiting to be sent' });
  return { ...seeded, uploads, list, view, goOnline: () => onLine.mockReturnValue(true) };
}

const items = (list: HTMLElement) => within(list).getAllByRole('listitem');

describe('the outbox screen', () => {
  it("lists the technician's own records, oldest first, with type, curve, time, thumbnail, status and last error", async () => {
    const { list, waiting, refused } = await openOutbox();

    const [first, second] = items(list);
    expect(items(list)).toHaveLength(2);
    if (!first || !second) throw new Error('two records expected');
    expect(first).toHaveAccessibleName('CoF Measurement');
    expect(first).toHaveTextContent('FZR/NR · FZR-LDH · 42 · Single');
    expect(first).toHaveTextContent(waiting.localId);
    expect(within(first).getByRole('img', { name: `Photo of ${waiting.localId}` })).toHaveAttribute('src', expect.stringMatching(/^blob:thumb-/));
    expect(within(first).getByText('Waiting to be sent')).toBeInTheDocument();
    expect(first).toHaveTextContent('Last error: No network connection.');
    expect(within(first).getByRole('time')).toHaveAttribute('dateTime', '2025-03-04T05:30:00.000Z');

    expect(second).toHaveTextContent(refused.localId);
    expect(within(second).getByText('Refused by the server')).toBeInTheDocument();
    expect(second).toHaveTextContent('Last error: Curve not found');
    // Another employee's record is counted, never shown or sent under this identity.
    expect(screen.queryByText(/· 99 ·/)).not.toBeInTheDocument();
    expect(screen.getByText('1 record of another user stays on this phone until they sign in.')).toBeInTheDocument();
  });

  it('labels records held for a new password apart from records waiting for sign-in', async () => {
    const held = makeRecord({ curveNumber: '44', status: 'needs-sign-in', lastError: PASSWORD_CHANGE_MESSAGE });
    const signedOut = makeRecord({ curveNumber: '45', status: 'needs-sign-in', lastError: 'Your session has ended.' });
    for (const record of [held, signedOut]) await outboxStore().put(record);
    const { list } = await openOutbox();
    const byCurve = (curve: string) => items(list).find((item) => item.textContent?.includes(` ${curve} `));
    expect(within(byCurve('44')!).getByText('Waiting for your new password')).toBeInTheDocument();
    expect(within(byCurve('45')!).getByText('Waiting for sign-in')).toBeInTheDocument();
  });

  it('gives back the thumbnails\' memory when the screen is left', async () => {
    const { view } = await openOutbox();
    const made = objectUrls.created.mock.results.map((r) => String(r.value));
    expect(made.length).toBeGreaterThanOrEqual(2);
    view.unmount();
    for (const url of made) expect(objectUrls.revoked).toHaveBeenCalledWith(url);
  });

  it("'Send now' sends every waiting record, the refused one included, and the list empties", async () => {
    const { list, uploads, goOnline } = await openOutbox();
    goOnline();
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));

    expect(await screen.findByText('Nothing waiting')).toBeInTheDocument();
    expect(list).not.toBeInTheDocument();
    expect(uploads.map((u) => u.curveNumber)).toEqual(['42', '43']);
    expect(screen.getByText('2 records sent.')).toBeInTheDocument();
    expect((await outboxStore().list()).map((r) => r.ownerEmployeeId)).toEqual(['TECH002']);
  });

  it("'Send now' says so when the phone is offline, and sends nothing", async () => {
    const { uploads } = await openOutbox();
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('No network. The records will be sent when the network is back.')).toBeInTheDocument();
    expect(uploads).toHaveLength(0);
  });

  it('asks before deleting a record and keeps it on Cancel', async () => {
    const { list } = await openOutbox();
    const [first] = items(list);
    if (!first) throw new Error('a record expected');
    await userEvent.click(within(first).getByRole('button', { name: 'Delete' }));

    const dialog = screen.getByRole('alertdialog', { name: 'Delete this record?' });
    expect(dialog).toHaveTextContent('has not reached the server and cannot be recovered');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(items(list)).toHaveLength(2);
    expect(await outboxStore().list()).toHaveLength(3);
  });

  it('deletes only the chosen record on confirmation', async () => {
    const { list, waiting, refused } = await openOutbox();
    const second = items(list)[1];
    if (!second) throw new Error('two records expected');
    await userEvent.click(within(second).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(items(list)).toHaveLength(1));
    expect(items(list)[0]).toHaveTextContent(waiting.localId);
    expect((await outboxStore().list()).map((r) => r.localId)).not.toContain(refused.localId);
    expect(await outboxStore().list()).toHaveLength(2);
  });

  it('goes Back to /purpose', async () => {
    await openOutbox();
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
  });
});
