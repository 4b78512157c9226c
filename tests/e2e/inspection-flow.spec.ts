import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { recordIdOnSuccess } from './field-helpers.js';
import { TECHNICIAN, expectPath, signIn } from './helpers.js';

interface StoredLog {
  recordId: string;
  type: string;
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  cofValue: string | null;
  serviceUpdate: string | null;
  partCategory: string | null;
  isMachineWorking: boolean | null;
  technicianId: string;
  imageUrl: string;
  imageHash: string;
  imageSizeBytes: number;
  imageWidth: number;
  imageHeight: number;
  latitude: number | null;
  longitude: number | null;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The record as the server stored it, and proof that its photo is the bytes it describes. */
async function storedRecord(page: Page, recordId: string): Promise<StoredLog> {
  const response = await page.request.get('/api/inspections?limit=50');
  expect(response.status()).toBe(200);
  const { logs } = (await response.json()) as { logs: StoredLog[] };
  const log = logs.find((l) => l.recordId === recordId);
  if (!log) throw new Error(`record ${recordId} is not in GET /api/inspections`);
  const image = await page.request.get(log.imageUrl);
  expect(image.status()).toBe(200);
  const bytes = await image.body();
  expect(bytes.length).toBe(log.imageSizeBytes);
  expect(sha256(bytes)).toBe(log.imageHash);
  expect(log.imageSizeBytes).toBeGreaterThan(6000);
  const meta = await sharp(bytes).metadata();
  expect([meta.width, meta.height]).toEqual([log.imageWidth, log.imageHeight]);
  return log;
}

async function captureWithCamera(page: Page) {
  await page.getByRole('button', { name: 'Open Camera' }).click();
  const capture = page.getByRole('button', { name: 'Capture' });
  await expect(capture).toBeEnabled({ timeout: 15_000 });
  await capture.click();
  await expect(page.getByRole('button', { name: 'Submit Record' })).toBeVisible();
}

test.describe("with the phone's position", () => {
  test.use({ geolocation: { latitude: 23.3315, longitude: 75.0367, accuracy: 12 }, permissions: ['geolocation'] });

  test('a Service inspection: all four steps with the HKM quick select and the fake camera', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await page.getByText('Service Inspection').click();
    await expect(page.getByText('Step 1 of 4')).toBeVisible();

    await page.getByLabel('Division/Railway').selectOption('RTM/WR');
    await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
    const hkm = page.getByLabel('HKM Code');
    await hkm.selectOption({ index: 1 });
    // The quick select fills the curve and the line.
    await expect(page.getByLabel('Curve Number')).not.toHaveValue('');
    await expect(page.getByLabel('Line')).not.toHaveValue('');
    const section = await page.getByLabel('Section', { exact: true }).inputValue();
    const curve = await page.getByLabel('Curve Number').inputValue();

    await page.getByRole('button', { name: 'Log Service Details' }).click();
    await expectPath(page, '/service-details');
    await page.getByLabel('Some part is broken').check();
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.getByLabel('Item Name').selectOption({ index: 1 });
    await page.getByLabel('Grease Depth (cm)').fill('4.5');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expectPath(page, '/review');
    const action = page.getByRole('button', { name: 'Capture Image' });
    await expect(action).toBeDisabled();
    await page.getByRole('radio', { name: 'No', exact: true }).check();
    await expect(action).toBeEnabled();
    await action.click();

    await expectPath(page, '/camera');
    await captureWithCamera(page);
    await page.getByRole('button', { name: 'Submit Record' }).click();
    const recordId = await recordIdOnSuccess(page);

    const log = await storedRecord(page, recordId);
    expect(log).toMatchObject({
      type: 'Service',
      divisionRailway: 'RTM/WR',
      section,
      serviceUpdate: 'part-broken',
      isMachineWorking: false,
      technicianId: TECHNICIAN.employeeId,
    });
    expect(log.curveNumber).toBe(curve);
    expect(log.partCategory).not.toBeNull();

    expect(log.latitude).toBeCloseTo(23.3315, 3);
    expect(log.longitude).toBeCloseTo(75.0367, 3);

    await page.getByRole('button', { name: 'New Inspection' }).click();
    await expectPath(page, '/purpose');
  });
});

test('a CoF measurement: three steps, FZR/NR is single line, the CoF value is masked', async ({ page }) => {
  await signIn(page, TECHNICIAN.employeeId);
  await page.getByText('CoF Measurement').click();
  await expect(page.getByText('Step 1 of 3')).toBeVisible();

  await page.getByLabel('Division/Railway').selectOption('FZR/NR');
  await expect(page.getByLabel('Line')).toHaveValue('Single');
  await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('Curve Number').selectOption({ index: 1 });
  const cof = page.getByLabel('CoF Value');
  await cof.fill('');
  await cof.pressSequentially('28');
  await expect(cof).toHaveValue('0.28');
  await page.getByLabel('Location').selectOption('Near End');
  await page.getByRole('button', { name: 'Continue to Camera' }).click();

  await expectPath(page, '/camera');
  await captureWithCamera(page);
  await page.getByRole('button', { name: 'Submit Record' }).click();
  const recordId = await recordIdOnSuccess(page);

  const log = await storedRecord(page, recordId);
  expect(log).toMatchObject({ type: 'CoF', divisionRailway: 'FZR/NR', line: 'Single', cofValue: '0.28' });
});

test.describe('without a camera', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const deny = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: deny, enumerateDevices: () => Promise.resolve([]) }, configurable: true });
    });
  });

  test('a denied camera falls back to the file picker, and the record is submitted', async ({ page }) => {
    const picked = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 110, b: 70 } },
    })
      .composite([{ input: Buffer.from('<svg width="1600" height="1200"><rect x="200" y="300" width="900" height="500" fill="#445"/><circle cx="1200" cy="400" r="180" fill="#cc8"/></svg>'), top: 0, left: 0 }])
      .jpeg({ quality: 85 })
      .toBuffer();

    await signIn(page, TECHNICIAN.employeeId);
    await page.getByText('CoF Measurement').click();
    await page.getByLabel('Division/Railway').selectOption('RTM/WR');
    await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
    await page.getByLabel('Curve Number').selectOption({ index: 1 });
    await page.getByLabel('Line').selectOption('Up');
    await page.getByLabel('CoF Value').pressSequentially('31');
    await page.getByRole('button', { name: 'Continue to Camera' }).click();
    await expectPath(page, '/camera');

    await page.getByLabel('Choose from device').setInputFiles({ name: 'curve.jpg', mimeType: 'image/jpeg', buffer: picked });
    await page.getByRole('button', { name: 'Submit Record' }).click();
    const recordId = await recordIdOnSuccess(page);
    const log = await storedRecord(page, recordId);
    expect(log).toMatchObject({ type: 'CoF', cofValue: '0.31' });
    // The overlay is burned into a new JPEG: not the picked bytes.
    expect(log.imageHash).not.toBe(sha256(picked));
  });

  test('a picked file that is not an image is refused with the spec alert', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await page.getByText('CoF Measurement').click();
    await page.getByLabel('Division/Railway').selectOption('FZR/NR');
    await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
    await page.getByLabel('Curve Number').selectOption({ index: 1 });
    await page.getByLabel('CoF Value').pressSequentially('4');
    await page.getByRole('button', { name: 'Continue to Camera' }).click();
    // The alert blocks the page until it is answered, so answer it as it comes.
    const messages: string[] = [];
    page.on('dialog', (dialog) => {
      messages.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByLabel('Choose from device').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
    await expect.poll(() => messages.join('\n')).toContain('Invalid file type: Only image files are allowed');
    expect(messages.join('\n')).toContain('Failed to capture image');
    await expect(page.getByRole('button', { name: 'Submit Record' })).toHaveCount(0);
  });
});
