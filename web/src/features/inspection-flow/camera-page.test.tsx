import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEntry } from '../../../../common/schemas/inspection.js';
import { i18n } from '../../lib/i18n.js';
import { SUBMISSION_RESULT_KEY } from '../../lib/storage-keys.js';
import { deferred, jsonResponse } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';
import {
  jpegBlob,
  restoreCameraStubs,
  stubCamera,
  stubCanvas,
  stubGeolocation,
  stubImageDecoding,
  stubObjectUrls,
  stubVideoFrame,
} from './camera/camera-test-stubs.js';
import { outboxStore } from '../outbox/outbox-store.js';
import { cofEntry, serviceEntry, storedEntry, storeEntry } from './upload/entry-fixtures.js';

const stored = {
  recordId: 'INS-2025-0042',
  fileName: 'INS-2025-0042.jpg',
  imageUrl: '/api/inspections/INS-2025-0042/image',
  imageHash: 'cd'.repeat(32),
  imageSizeBytes: 80_000,
  imageWidth: 1920,
  imageHeight: 1080,
  duplicate: false,
};

interface Upload {
  metadata: Record<string, unknown>;
  fields: string[];
  file: File | null;
}

/** fetch for the signed-in app plus the upload, whose FormData body the shared stub does not keep. */
function stubServer(answers: Array<() => Response | Promise<Response>>) {
  const uploads: Upload[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/me') return jsonResponse(200, { user: technician });
      if (url === '/api/health') return jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' });
      if (url === '/api/inspections/upload' && init?.body instanceof FormData) {
        const file = init.body.get('file');
        uploads.push({
          metadata: JSON.parse(String(init.body.get('metadata'))),
          fields: [...init.body.keys()],
          file: file instanceof File ? file : null,
        });
        const answer = answers[uploads.length - 1] ?? answers[answers.length - 1];
        if (answer) return answer();
      }
      return jsonResponse(404, { code: 'ROUTE_NOT_FOUND', message: 'No such API route' });
    }),
  );
  return uploads;
}

/** Opens /camera and waits for the screen's code, which loads on demand. */
async function openCamera(entry: Partial<SessionEntry>, answers: Array<() => Response | Promise<Response>> = [() => jsonResponse(201, stored)]) {
  storeUser(technician);
  storeEntry(entry);
  const uploads = stubServer(answers);
  const { unmount } = renderApp('/camera');
  await screen.findByRole('button', { name: 'Open Camera' });
  return Object.assign(uploads, { unmount });
}

const fileInput = () => screen.getByLabelText<HTMLInputElement>('Choose from device', { selector: 'input' });
const pick = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });
const photoFile = (bytes = 2_000_000, type = 'image/jpeg') => new File([new Uint8Array(bytes)], 'IMG_0001.jpg', { type });
const location = () => screen.getByTestId('location');
const term = (name: string) => screen.getByText(name, { selector: 'dt' });
// The outbox's local ID of serviceEntry's record: from its clientSubmissionId.
const LOCAL_ID = 'LOCAL-6F1C2A4E';

const alertSpy = () => vi.mocked(window.alert);

beforeEach(() => {
  vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  stubObjectUrls();
});
afterEach(restoreCameraStubs);

describe('Camera screen without a photo', () => {
  it('shows step 4 of 4 for Service with Open Camera, Choose from device and the guidelines', async () => {
    await openCamera(serviceEntry);
    expect(screen.getByRole('heading', { name: 'Capture Photo' })).toBeInTheDocument();
    expect(screen.getByText('Step 4 of 4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open Camera' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Choose from device' })).toBeEnabled();
    expect(fileInput()).toHaveAttribute('accept', 'image/*');
    expect(fileInput()).toHaveAttribute('capture', 'environment');
    expect(screen.getByRole('region', { name: 'Photo guidelines' })).toHaveTextContent('whole machine and the rail');
  });

  it('shows step 3 of 3 for CoF', async () => {
    await openCamera(cofEntry);
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument();
  });

  it("opens the device picker from 'Choose from device'", async () => {
    await openCamera(serviceEntry);
    const click = vi.spyOn(fileInput(), 'click');
    await userEvent.click(screen.getByRole('button', { name: 'Choose from device' }));
    expect(click).toHaveBeenCalledTimes(1);
  });
});

describe('Camera screen frame', () => {
  it('shows the title, step and Back while the camera code loads', () => {
    storeUser(technician);
    storeEntry(cofEntry);
    stubServer([]);
    renderApp('/camera');
    expect(screen.getByRole('heading', { name: 'Capture Photo' })).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Back/ })).toBeInTheDocument();
  });

  it.each([
    [serviceEntry, /^\/service-details$/],
    [cofEntry, /^\/data-entry\?type=CoF$/],
  ])('goes Back to the previous step of the flow (%#)', async (entry, path) => {
    await openCamera(entry);
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent(path));
  });
});

describe('photo checks', () => {
  beforeEach(() => {
    stubCanvas();
    stubImageDecoding({ width: 4000, height: 3000 });
  });

  it.each([
    ['an empty file', photoFile(0), 'Failed to capture image: Invalid file: File is empty or corrupted'],
    ['a file over 10 MB', photoFile(10 * 1024 * 1024 + 1), 'Failed to capture image: File too large: Maximum size is 10MB'],
    ['a file that is not an image', photoFile(5000, 'application/pdf'), 'Failed to capture image: Invalid file type: Only image files are allowed'],
  ])('alerts for %s and keeps no photo', async (_case, file, message) => {
    await openCamera(serviceEntry);
    pick(file);
    await waitFor(() => expect(alertSpy()).toHaveBeenCalledWith(message));
    expect(screen.queryByRole('button', { name: 'Submit Record' })).not.toBeInTheDocument();
  });

  it('alerts for an image file that cannot be decoded', async () => {
    stubImageDecoding('fail');
    await openCamera(serviceEntry);
    pick(photoFile());
    await waitFor(() => expect(alertSpy()).toHaveBeenCalledWith('Failed to capture image: Invalid file: File is empty or corrupted'));
  });

  it('alerts when the encoder gives no image data', async () => {
    stubCanvas({ blob: null });
    await openCamera(serviceEntry);
    pick(photoFile());
    await waitFor(() => expect(alertSpy()).toHaveBeenCalledWith('Failed to capture image: Could not create image data'));
  });
});

describe('picking a photo from the device', () => {
  it('shows the overlaid photo, the guidelines, Retake and Submit Record', async () => {
    const canvas = stubCanvas();
    stubImageDecoding({ width: 4000, height: 3000 });
    await openCamera(cofEntry);
    pick(photoFile());

    expect(await screen.findByRole('img', { name: 'Captured photo with data overlay' })).toHaveAttribute('src', 'blob:photo-1');
    expect(screen.getByRole('button', { name: 'Retake' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Submit Record' })).toBeEnabled();
    expect(screen.getByRole('region', { name: 'Photo guidelines' })).toBeInTheDocument();
    expect(canvas.sizes).toEqual([{ width: 1920, height: 1440 }]);
    expect(canvas.texts).toEqual(expect.arrayContaining(['Curve: 42 | Line: Single | CoF: 0.25', 'Technician: Ravi Kumar (TECH001)', 'GPS: unavailable']));
    expect(alertSpy()).not.toHaveBeenCalled();
  });

  it("burns in the overlay's labels in the technician's language, the data as stored", async () => {
    const hindi: Array<[{ id: string }, string]> = [
      [msg`CoF Measurement`, 'CoF माप'],
      [msg`Division`, 'मंडल'],
      [msg`Section`, 'खंड'],
      [msg`Curve`, 'कर्व'],
      [msg`Line`, 'लाइन'],
      [msg`Single`, 'सिंगल'],
      [msg`Technician`, 'तकनीशियन'],
      [msg`GPS: unavailable`, 'GPS: उपलब्ध नहीं'],
    ];
    i18n.load('hi', Object.fromEntries(hindi.map(([descriptor, text]) => [descriptor.id, text])));
    i18n.activate('hi');
    const canvas = stubCanvas();
    stubImageDecoding({ width: 4000, height: 3000 });
    await openCamera(cofEntry);
    pick(photoFile());

    await screen.findByRole('img', { name: 'Captured photo with data overlay' });
    expect(canvas.texts.slice(1)).toEqual([
      'मंडल: FZR/NR | खंड: FZR-LDH',
      'कर्व: 42 | लाइन: सिंगल | CoF: 0.25',
      'तकनीशियन: Ravi Kumar (TECH001)',
      'GPS: उपलब्ध नहीं',
    ]);
    expect(canvas.texts[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \| CoF माप$/);
  });
});

describe('live camera', () => {
  beforeEach(() => {
    stubVideoFrame(1920, 1080);
  });

  it('opens the back camera at 1920x1080 full screen, captures with the overlay and turns the camera off', async () => {
    const camera = stubCamera();
    const canvas = stubCanvas();
    stubGeolocation({ latitude: 23.3315, longitude: 75.0367, accuracy: 9 });
    await openCamera(serviceEntry);

    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    const preview = await screen.findByRole('dialog', { name: 'Camera preview' });
    expect(camera.getUserMedia).toHaveBeenCalledWith({
      video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } },
      audio: false,
    });
    expect(within(preview).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(preview).getByRole('button', { name: 'Switch Camera' })).toBeInTheDocument();

    await userEvent.click(within(preview).getByRole('button', { name: 'Capture' }));
    expect(await screen.findByRole('img', { name: 'Captured photo with data overlay' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(camera.stops[0]).toHaveBeenCalled();
    expect(canvas.sizes).toEqual([{ width: 1920, height: 1080 }]);
    expect(canvas.texts).toContain('GPS: 23.331500, 75.036700 (±9 m)');
    expect(canvas.texts).toContain('Division: RTM/WR | Section: RTM-NAD');
    expect(canvas.texts[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \| Service Inspection$/);
  });

  it('turns the camera off on Cancel and goes back to the no-photo view', async () => {
    const camera = stubCamera();
    await openCamera(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(camera.stops[0]).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Open Camera' })).toBeInTheDocument();
  });

  it('switches between the back and the front camera, stopping the one left', async () => {
    const camera = stubCamera();
    await openCamera(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Switch Camera' }));
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(2));
    expect(camera.getUserMedia).toHaveBeenLastCalledWith(expect.objectContaining({ video: expect.objectContaining({ facingMode: 'user' }) }));
    expect(camera.stops[0]).toHaveBeenCalled();
    expect(camera.stops[1]).not.toHaveBeenCalled();
  });

  it('keeps the back camera when the front one will not open', async () => {
    const camera = stubCamera('back-only');
    await openCamera(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Switch Camera' }));
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(3));
    expect(camera.getUserMedia).toHaveBeenLastCalledWith(expect.objectContaining({ video: expect.objectContaining({ facingMode: 'environment' }) }));
    expect(await screen.findByRole('button', { name: 'Capture' })).toBeEnabled();
    expect(screen.queryByText('The camera is not available. Choose a photo from the device instead.')).not.toBeInTheDocument();
  });

  it('checks the captured photo before keeping it', async () => {
    stubCamera();
    stubCanvas({ blob: jpegBlob(10 * 1024 * 1024 + 1) });
    await openCamera(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Capture' }));
    expect(alertSpy()).toHaveBeenCalledWith('Failed to capture image: File too large: Maximum size is 10MB');
    expect(screen.queryByRole('button', { name: 'Submit Record' })).not.toBeInTheDocument();
  });

  it('turns the camera off when the page is left', async () => {
    const camera = stubCamera();
    const { unmount } = await openCamera(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    await screen.findByRole('button', { name: 'Capture' });
    expect(camera.stops[0]).not.toHaveBeenCalled();
    unmount();
    expect(camera.stops[0]).toHaveBeenCalled();
  });

  it('alerts when the video has no frame yet', async () => {
    stubCamera();
    stubCanvas();
    vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(0);
    await openCamera(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Capture' }));
    expect(alertSpy()).toHaveBeenCalledWith('Failed to capture image: Video not ready');
    expect(screen.getByRole('dialog', { name: 'Camera preview' })).toBeInTheDocument();
  });

  it('falls back to the device picker when camera access is denied', async () => {
    stubCamera('deny');
    await openCamera(serviceEntry);
    const click = vi.spyOn(fileInput(), 'click');
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    expect(await screen.findByText('The camera is not available. Choose a photo from the device instead.')).toBeInTheDocument();
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('falls back to the device picker when the browser has no camera API', async () => {
    await openCamera(serviceEntry);
    const click = vi.spyOn(fileInput(), 'click');
    await userEvent.click(screen.getByRole('button', { name: 'Open Camera' }));
    expect(await screen.findByText('The camera is not available. Choose a photo from the device instead.')).toBeInTheDocument();
    expect(click).toHaveBeenCalledTimes(1);
  });
});

describe('Submit Record', () => {
  beforeEach(() => {
    stubCanvas({ blob: jpegBlob(91_000) });
    stubImageDecoding({ width: 1920, height: 1080 });
  });

  async function withPhoto(entry: Partial<SessionEntry>, answers?: Array<() => Response | Promise<Response>>) {
    const uploads = await openCamera(entry, answers);
    pick(photoFile());
    await screen.findByRole('button', { name: 'Submit Record' });
    return uploads;
  }

  it("reads 'Submitting...' while sending, then shows /success with the stored result and clears the entry", async () => {
    const answer = deferred<Response>();
    const uploads = await withPhoto(serviceEntry, [() => answer.promise]);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));

    expect(screen.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Retake' })).toBeDisabled();
    // The record goes to the outbox first and is sent from there: wait for the one request.
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    expect(uploads[0]?.fields).toEqual(['metadata', 'file']);
    expect(uploads[0]?.file).toMatchObject({ name: 'inspection_image.jpg', type: 'image/jpeg', size: 91_000 });
    expect(uploads[0]?.metadata).toMatchObject({
      clientSubmissionId: serviceEntry.clientSubmissionId,
      technicianId: 'TECH001',
      technicianName: 'Ravi Kumar',
      isMachineWorking: 'no',
      curveNumber: 'C-17',
    });

    answer.resolve(jsonResponse(201, stored));
    expect(await screen.findByText('INS-2025-0042')).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/success$/));
    expect(JSON.parse(sessionStorage.getItem(SUBMISSION_RESULT_KEY) ?? 'null')).toEqual({
      status: 'completed',
      recordId: 'INS-2025-0042',
      fileName: 'INS-2025-0042.jpg',
    });
    expect(term('Upload Status').nextElementSibling).toHaveTextContent('Completed');
    expect(storedEntry()).toBeNull();
    // On the server: nothing is left waiting on the phone.
    expect(await outboxStore().list()).toEqual([]);
  });

  it('sends the position the photo was taken at', async () => {
    stubGeolocation({ latitude: 30.91, longitude: 74.6, accuracy: 15 });
    const uploads = await withPhoto(cofEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));
    await waitFor(() => expect(location()).toHaveTextContent('/success'));
    expect(uploads[0]?.metadata).toMatchObject({ latitude: 30.91, longitude: 74.6, accuracy: 15, cofValue: '0.25' });
  });

  it.each([
    ['the network is down', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the server has trouble (504)', () => new Response('upstream timeout', { status: 504 })],
  ])("keeps the record in the outbox and shows 'Queued' with its local ID when %s", async (_case, failure) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const uploads = await withPhoto(serviceEntry, [failure]);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/success$/));
    expect(term('Upload Status').nextElementSibling).toHaveTextContent('Queued');
    expect(term('Local ID').nextElementSibling).toHaveTextContent(LOCAL_ID);
    expect(screen.queryByText('Record ID', { selector: 'dt' })).not.toBeInTheDocument();
    expect(uploads).toHaveLength(1);

    const [queued] = await outboxStore().list();
    expect(queued).toMatchObject({
      localId: LOCAL_ID,
      clientSubmissionId: serviceEntry.clientSubmissionId,
      ownerEmployeeId: 'TECH001',
      status: 'pending',
      attempts: 1,
      metadata: { clientSubmissionId: serviceEntry.clientSubmissionId, technicianId: 'TECH001', curveNumber: 'C-17' },
    });
    expect(queued?.photo.size).toBe(91_000);
    // Safe in the outbox, so the entry in progress is done with.
    expect(storedEntry()).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(SUBMISSION_RESULT_KEY) ?? 'null')).toMatchObject({ status: 'queued', localId: LOCAL_ID });
  });

  it('queues at once, without trying, when the phone knows it is offline', async () => {
    const uploads = await withPhoto(cofEntry);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/success$/));
    expect(term('Upload Status').nextElementSibling).toHaveTextContent('Queued');
    expect(uploads).toHaveLength(0);
    expect(await outboxStore().list()).toEqual([expect.objectContaining({ status: 'pending', attempts: 0, clientSubmissionId: cofEntry.clientSubmissionId })]);
  });

  it("shows the 'Submission Failed' toast with the server's message of a 400, keeps entry and photo, and marks the record failed", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await withPhoto(serviceEntry, [
      () => jsonResponse(400, { code: 'VALIDATION_FAILED', message: 'The request is not valid', fields: { section: 'Section is required' } }),
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Submission Failed');
    expect(toast).toHaveTextContent('Failed to submit inspection record. Please try again. The request is not valid: Section is required');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/camera$/));
    expect(screen.getByRole('img', { name: 'Captured photo with data overlay' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Record' })).toBeEnabled();
    expect(storedEntry()).toMatchObject({ clientSubmissionId: serviceEntry.clientSubmissionId });
    expect(await outboxStore().list()).toEqual([
      expect.objectContaining({ localId: LOCAL_ID, status: 'failed', lastError: 'The request is not valid: Section is required' }),
    ]);
  });

  it('sends the same clientSubmissionId again when the technician submits once more after a refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const uploads = await withPhoto(serviceEntry, [
      () => jsonResponse(400, { code: 'VALIDATION_FAILED', message: 'Curve not found' }),
      () => jsonResponse(200, { ...stored, duplicate: true }),
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/success$/));
    expect(uploads).toHaveLength(2);
    expect(uploads[1]?.metadata.clientSubmissionId).toBe(uploads[0]?.metadata.clientSubmissionId);
    // The refused try's outbox record was the same one, and is gone with the success.
    expect(await outboxStore().list()).toEqual([]);
  });

  it('keeps the record for after the next sign-in when the session has ended (401)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await withPhoto(cofEntry, [() => jsonResponse(401, { code: 'SESSION_EXPIRED', message: 'Your session has ended' })]);
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(screen.getByRole('alert')).toHaveTextContent('Your session has ended. The record is kept on this phone and will be sent after you sign in.');
    expect(await outboxStore().list()).toEqual([expect.objectContaining({ status: 'needs-sign-in', ownerEmployeeId: 'TECH001' })]);
    expect(storedEntry()).toBeNull();
  });

  it('sends nothing and says why when the entry fails the upload contract', async () => {
    const uploads = await withPhoto({ ...serviceEntry, isMachineWorking: undefined });
    await userEvent.click(screen.getByRole('button', { name: 'Submit Record' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please answer: Is the Machine working?');
    expect(uploads).toHaveLength(0);
  });

  it('lets the technician retake the photo', async () => {
    stubCamera();
    stubVideoFrame();
    await withPhoto(serviceEntry);
    await userEvent.click(screen.getByRole('button', { name: 'Retake' }));
    expect(await screen.findByRole('dialog', { name: 'Camera preview' })).toBeInTheDocument();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:photo-1');
  });
});
