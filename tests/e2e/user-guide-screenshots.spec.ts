/**
 * The screenshots of docs/user-guide.md, taken from the real app: the technician's screens at
 * phone size, the admin's and the client's at desktop size. With UPDATE_DOC_SCREENSHOTS=1
 * (`npm run docs:screenshots`) they replace docs/screenshots/; otherwise they go to the test's
 * output folder, and the run still proves every screen the guide shows can be reached. The
 * guide and its pictures cannot drift: the images the guide shows are exactly the ones taken
 * here, and each is a file in docs/screenshots.
 *
 * Other specs run beside this one on the same demo server and count its records: nothing is
 * written here. The technician's record waits on the phone (its upload is refused by the
 * network) and is deleted from the outbox; the admin and the client only look.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { devices, expect, type Page, test } from '@playwright/test';
import { ADMIN, CLIENT, TECHNICIAN, expectPath, signIn } from './helpers.js';

const DOCS_DIR = path.join(import.meta.dirname, '..', '..', 'docs');
const SCREENSHOT_DIR = path.join(DOCS_DIR, 'screenshots');
const UPDATE = process.env.UPDATE_DOC_SCREENSHOTS === '1';

/** Every screenshot the guide shows, by the part of the guide it belongs to. */
const PHONE_SHOTS = ['login', 'purpose', 'data-entry', 'service-details', 'camera-photo', 'saved-on-phone', 'outbox'] as const;
const DESKTOP_SHOTS = [
  'admin-menu',
  'records',
  'curve-details',
  'user-management',
  'reports',
  'pdf-reports',
  'machine-dashboard',
  'machine-dashboard-management',
  'client-reports',
] as const;
type Shot = (typeof PHONE_SHOTS)[number] | (typeof DESKTOP_SHOTS)[number];

const fileOf = (shot: Shot) => `${shot}.jpg`;

/**
 * Takes `shot`: the page from its top down to the end of its content, at most the viewport's
 * height or `maxHeight` CSS pixels, so a short screen leaves no empty space in the guide.
 */
async function snap(page: Page, shot: Shot, options: { maxHeight?: number } = {}) {
  const size = await page.evaluate(async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    // A sticky header is drawn once, at the top, when the picture starts at the top.
    window.scrollTo(0, 0);
    await document.fonts.ready;
    // The content ends with its lowest leaf (text, control, image); layout boxes stretched
    // to the screen's height do not count.
    const leaves = [...document.body.querySelectorAll('*')].filter(
      (e) => e.children.length === 0 || ['BUTTON', 'SELECT', 'A', 'IMG', 'VIDEO', 'CANVAS'].includes(e.tagName),
    );
    const bottom = Math.max(0, ...leaves.map((e) => e.getBoundingClientRect().bottom));
    return { width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight, viewport: window.innerHeight, bottom: Math.ceil(bottom) };
  });
  const height = Math.min(size.height, options.maxHeight ?? size.viewport, size.bottom + 28);
  const dir = UPDATE ? SCREENSHOT_DIR : test.info().outputPath('screenshots');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileOf(shot));
  await page.screenshot({
    path: file,
    type: 'jpeg',
    quality: 70,
    animations: 'disabled',
    caret: 'hide',
    fullPage: height > size.viewport,
    clip: { x: 0, y: 0, width: size.width, height },
  });
  expect(existsSync(file)).toBe(true);
}

// One worker, in order: the check of the files runs after the shots that make them.
test.describe.configure({ mode: 'serial' });

test.describe('the technician, at phone size', () => {
  // One CSS pixel to one image pixel: a 412 px wide picture, small in the repository and the PDF.
  test.use({ deviceScaleFactor: 1, geolocation: { latitude: 23.3315, longitude: 75.0367, accuracy: 8 }, permissions: ['geolocation'] });

  test('signs in, logs a Service inspection with its photo, and finds it waiting in the outbox', async ({ page }) => {
    test.setTimeout(120_000);
    // No record of this test reaches the server: the upload fails as in a dead zone.
    await page.route('**/api/inspections/upload', (route) => route.abort('internetdisconnected'));

    await page.goto('/login');
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByText(TECHNICIAN.employeeId).first()).toBeVisible();
    await snap(page, 'login');

    await signIn(page, TECHNICIAN.employeeId);
    await expectPath(page, '/purpose');
    await expect(page.getByRole('heading', { name: 'Due in your sections' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Loading the due list...')).toHaveCount(0);
    await snap(page, 'purpose', { maxHeight: 1100 });

    await page.getByText('Service Inspection').click();
    await expect(page.getByText('Step 1 of 4')).toBeVisible();
    await page.getByLabel('Division/Railway').selectOption('RTM/WR');
    await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
    await page.getByLabel('HKM Code').selectOption({ index: 1 });
    await expect(page.getByLabel('Curve Number')).not.toHaveValue('');
    await snap(page, 'data-entry', { maxHeight: 1040 });

    await page.getByRole('button', { name: 'Log Service Details' }).click();
    await expectPath(page, '/service-details');
    await page.getByLabel('Some part is broken').check();
    await page.getByLabel('Category').selectOption({ index: 1 });
    await page.getByLabel('Item Name').selectOption({ index: 1 });
    await page.getByLabel('Grease Depth (cm)').fill('2.5');
    await snap(page, 'service-details', { maxHeight: 1250 });

    await page.getByRole('button', { name: 'Continue' }).click();
    await expectPath(page, '/review');
    await page.getByRole('radio', { name: 'Yes', exact: true }).check();
    await page.getByRole('button', { name: 'Capture Image' }).click();
    await expectPath(page, '/camera');
    await page.getByRole('button', { name: 'Open Camera' }).click();
    const capture = page.getByRole('button', { name: 'Capture' });
    await expect(capture).toBeEnabled({ timeout: 15_000 });
    await capture.click();
    const submit = page.getByRole('button', { name: 'Submit Record' });
    await expect(submit).toBeVisible();
    await snap(page, 'camera-photo');

    await submit.click();
    await expectPath(page, '/success');
    await expect(page.getByText('Inspection Saved on This Phone')).toBeVisible();
    await expect(page.getByText('Queued')).toBeVisible();
    await snap(page, 'saved-on-phone');

    await page.getByRole('link', { name: /1 record waiting to be sent/ }).click();
    await expectPath(page, '/outbox');
    const waiting = page.getByRole('list', { name: 'Records waiting to be sent' }).getByRole('listitem');
    await expect(waiting).toHaveCount(1);
    await expect(waiting.getByText('Service Inspection')).toBeVisible();
    await snap(page, 'outbox');

    // The record goes, never to be sent.
    await waiting.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Nothing waiting')).toBeVisible();
  });
});

test.describe('the admin and the client, at desktop size', () => {
  test.use({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    userAgent: devices['Desktop Chrome'].userAgent,
  });

  async function openView(page: Page, view: string, heading: string) {
    await page.goto(`/admin?view=${view}`);
    await expect(page.getByRole('heading', { level: 1, name: heading }).or(page.getByRole('heading', { level: 2, name: heading })).first()).toBeVisible();
  }

  test('the admin: menu, records, register, users and reports', async ({ page }) => {
    test.setTimeout(90_000);
    await signIn(page, ADMIN.employeeId);
    await expectPath(page, '/purpose');
    await page.getByRole('button', { name: 'Admin Panel' }).click();
    await expectPath(page, '/admin');
    await expect(page.getByRole('navigation', { name: 'Admin menu' })).toBeVisible();
    await snap(page, 'admin-menu');

    await openView(page, 'records-management', 'Inspection Records & Images');
    const records = page.getByRole('list', { name: 'Inspection records' });
    await expect(records.getByRole('listitem').first()).toBeVisible({ timeout: 15_000 });
    // Thumbnails are made on first sight; the picture waits for them.
    await expect
      .poll(
        () =>
          records
            .locator('img')
            .evaluateAll((images) => images.filter((i) => i.getBoundingClientRect().top < window.innerHeight).every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)),
        { timeout: 20_000 },
      )
      .toBe(true);
    await snap(page, 'records', { maxHeight: 1150 });

    await openView(page, 'curve-details', 'Curve Details');
    await expect(page.getByRole('list', { name: 'Curve records' }).getByRole('listitem').first()).toBeVisible();
    await snap(page, 'curve-details');

    await openView(page, 'user-management', 'User Management');
    await expect(page.getByRole('list', { name: 'Users' }).getByRole('listitem').first()).toBeVisible();
    await snap(page, 'user-management');

    await openView(page, 'reports', 'Reports & Analytics');
    await expect(page.getByRole('heading', { name: 'Machine Installation Progress' })).toBeVisible();
    await expect(page.getByText('Loading the schedule...')).toHaveCount(0);
    await snap(page, 'reports', { maxHeight: 1400 });

    await openView(page, 'inspection-reports', 'PDF Reports');
    await page.getByLabel('Division').selectOption('RTM/WR');
    await page.getByLabel('Service Type').selectOption('Service');
    await snap(page, 'pdf-reports');
  });

  test('the admin: the machine dashboard and its figures', async ({ page }) => {
    test.setTimeout(60_000);
    await signIn(page, ADMIN.employeeId);
    await expectPath(page, '/purpose');

    await page.goto('/machine-dashboard');
    await expect(page.getByRole('heading', { name: 'Machine Dashboard' })).toBeVisible();
    await expect(page.getByRole('definition').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/coming release/i)).toHaveCount(0);
    await snap(page, 'machine-dashboard', { maxHeight: 1100 });

    await openView(page, 'machine-dashboard-management', 'Machine Dashboard');
    await expect(page.getByRole('button', { name: 'Update Progress Values' })).toBeVisible();
    await expect(page.getByText(/coming release/i)).toHaveCount(0);
    await snap(page, 'machine-dashboard-management');
  });

  test("the client: their division's reports", async ({ page }) => {
    await signIn(page, CLIENT.employeeId);
    await expectPath(page, '/admin');
    await expect(page.getByRole('heading', { name: 'Reports & Analytics' })).toBeVisible();
    await expect(page.getByText(CLIENT.division).first()).toBeVisible();
    await expect(page.getByText('Loading the schedule...')).toHaveCount(0);
    await snap(page, 'client-reports', { maxHeight: 1400 });
  });
});

test('the user guide shows exactly these screenshots, each a file in docs/screenshots', () => {
  const guide = readFileSync(path.join(DOCS_DIR, 'user-guide.md'), 'utf8');
  const shown = [...guide.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  const taken = [...PHONE_SHOTS, ...DESKTOP_SHOTS].map((shot) => `screenshots/${fileOf(shot)}`);
  expect([...new Set(shown)].sort()).toEqual([...taken].sort());
  // Each shown once: the PDF of the guide embeds each picture where it is shown.
  expect(shown).toHaveLength(new Set(shown).size);
  const missing = taken.filter((file) => !existsSync(path.join(DOCS_DIR, file)));
  expect(missing).toEqual([]);
});
