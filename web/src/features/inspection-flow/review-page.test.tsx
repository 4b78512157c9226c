import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../../common/schemas/inspection.js';
import { SUBMISSION_RESULT_KEY } from '../../lib/storage-keys.js';
import { jsonResponse, type RecordedRequest, stubFetch } from '../../test/fetch-stub.js';
import { renderScreen } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';
import { serviceEntry, storedEntry, storeEntry } from './upload/entry-fixtures.js';

const IMAGE_URL = '/api/inspections/INS-2025-0007/image';
const imageHead = (length: number, type = 'image/jpeg') => () =>
  new Response(null, { status: 200, headers: { 'content-length': String(length), 'content-type': type } });

async function open(entry: Partial<SessionEntry>, head?: (request: RecordedRequest) => Response | Promise<Response>) {
  storeUser(technician);
  storeEntry(entry);
  const requests = stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: technician }),
    ...(head ? { [`HEAD ${IMAGE_URL}`]: head } : {}),
  });
  await renderScreen('/review');
  return requests;
}

const unanswered: Partial<SessionEntry> = { ...serviceEntry, isMachineWorking: undefined };
const location = () => screen.getByTestId('location');

describe('Review screen', () => {
  it('shows step 3 of 4 and the inspection details with the signed-in technician', async () => {
    await open(serviceEntry);
    expect(screen.getByRole('heading', { name: 'Review' })).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 4')).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Inspection Details' });
    for (const text of ['Service Inspection', '2025-03-04', 'RTM/WR', 'RTM-NAD', 'C-17', 'Up', 'Ravi Kumar']) {
      expect(details).toHaveTextContent(text);
    }
  });

  it("keeps 'Capture Image' disabled until yes or no is chosen, then opens the camera", async () => {
    await open(unanswered);
    const button = screen.getByRole('button', { name: 'Capture Image' });
    expect(button).toBeDisabled();
    expect(screen.getByRole('radiogroup', { name: 'Is the Machine working?' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(button).toBeEnabled();
    await userEvent.click(button);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/camera$/));
  });

  it.each([
    ['Yes', 'yes'],
    ['No', 'no'],
  ])("stores the answer '%s' as isMachineWorking '%s' in the entry", async (label, value) => {
    await open(unanswered);
    await userEvent.click(screen.getByRole('radio', { name: label }));
    expect(storedEntry()).toMatchObject({ isMachineWorking: value, clientSubmissionId: serviceEntry.clientSubmissionId });
  });

  it('restores an answer given earlier', async () => {
    await open({ ...serviceEntry, isMachineWorking: 'no' });
    expect(screen.getByRole('radio', { name: 'No' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Capture Image' })).toBeEnabled();
  });

  it("reads 'Submit Inspection' once the entry's image is verified, and shows the image", async () => {
    const requests = await open({ ...serviceEntry, imageUrl: IMAGE_URL, fileName: 'INS-2025-0007.jpg' }, imageHead(80_000));
    expect(await screen.findByRole('button', { name: 'Submit Inspection' })).toBeEnabled();
    expect(screen.getByRole('img', { name: 'Inspection photo with data overlay' })).toHaveAttribute('src', IMAGE_URL);
    const head = requests.find((r) => r.method === 'HEAD');
    expect(head?.credentials).toBe('include');
    expect(head?.headers.has('x-user-data')).toBe(true);
  });

  it("keeps 'Submit Inspection' disabled until yes or no is chosen", async () => {
    await open({ ...unanswered, imageUrl: IMAGE_URL }, imageHead(80_000));
    const button = await screen.findByRole('button', { name: 'Submit Inspection' });
    expect(button).toBeDisabled();
    await userEvent.click(screen.getByRole('radio', { name: 'No' }));
    expect(button).toBeEnabled();
  });

  it('submits an already uploaded entry: verifies the image again, then shows the success screen', async () => {
    const requests = await open({ ...serviceEntry, imageUrl: IMAGE_URL, fileName: 'INS-2025-0007.jpg' }, imageHead(80_000));
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Inspection' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/success$/));
    expect(requests.filter((r) => r.method === 'HEAD')).toHaveLength(2);
    expect(JSON.parse(sessionStorage.getItem(SUBMISSION_RESULT_KEY) ?? 'null')).toEqual({
      status: 'completed',
      recordId: 'INS-2025-0007',
      fileName: 'INS-2025-0007.jpg',
    });
    expect(storedEntry()).toBeNull();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it.each([
    ['the server does not have it', () => new Response(null, { status: 404 }), 'Image not found on server (404). Please go back and capture a new photo.'],
    ['it is under 6000 bytes', imageHead(5999), 'The image appears to be a placeholder. Please go back and capture a real photo.'],
    ['the address answers with a web page', imageHead(20_000, 'text/html'), 'The image appears to be a placeholder. Please go back and capture a real photo.'],
    ['the network is down', () => Promise.reject(new TypeError('Failed to fetch')), 'Could not verify image on server. Please check your connection and try again.'],
  ])("says so and keeps 'Capture Image' when %s", async (_case, head, message) => {
    await open({ ...serviceEntry, imageUrl: IMAGE_URL }, head);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Capture Image' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Submit Inspection' })).not.toBeInTheDocument();
  });

  it('accepts an image of exactly 6000 bytes', async () => {
    await open({ ...serviceEntry, imageUrl: IMAGE_URL }, imageHead(6000));
    expect(await screen.findByRole('button', { name: 'Submit Inspection' })).toBeInTheDocument();
  });

  it('refuses to submit when the image is gone from the entry by the time of submitting', async () => {
    await open({ ...serviceEntry, imageUrl: IMAGE_URL }, imageHead(80_000));
    const button = await screen.findByRole('button', { name: 'Submit Inspection' });
    storeEntry(serviceEntry);
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Cannot submit inspection without a captured image. Please go back and take a photo first.',
    );
    await waitFor(() => expect(location()).toHaveTextContent(/^\/review$/));
    expect(sessionStorage.getItem(SUBMISSION_RESULT_KEY)).toBeNull();
  });

  it('stays on the review when the image has disappeared from the server by the time of submitting', async () => {
    let heads = 0;
    await open({ ...serviceEntry, imageUrl: IMAGE_URL }, () => (++heads === 1 ? imageHead(80_000)() : new Response(null, { status: 410 })));
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Inspection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Image not found on server (410). Please go back and capture a new photo.');
    expect(storedEntry()).not.toBeNull();
  });

  it('goes Back to /service-details', async () => {
    await open(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
  });

  it('sends a CoF entry on to the camera: the review is Service only', async () => {
    await open({ ...serviceEntry, type: 'CoF', cofValue: '0.25' });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/camera$/));
  });
});
