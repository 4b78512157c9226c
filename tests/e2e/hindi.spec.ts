/**
 * A technician's day entirely in Hindi at a phone's size (issue 27): the switch on the login
 * screen, a CoF record and a Service record sent online, a CoF record kept offline and sent when
 * the signal returns. Every control is found by its Hindi name from the catalogues.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from './a11y.js';
import { readReferenceStore } from './field-helpers.js';
import { expectPath } from './helpers.js';
import { chooseHindi, createOwnUser, hindiTexts } from './hindi-texts.js';

const TECHNICIAN = { employeeId: 'TEC2901', name: 'सुरेश यादव', role: 'Technician' as const, phone: '9826029901' };
const DEVANAGARI = /[\u0900-\u097F]/;

test.use({ geolocation: { latitude: 23.3315, longitude: 75.0367, accuracy: 12 }, permissions: ['geolocation'] });

test('a technician signs in, records CoF and Service visits online and offline, all in Hindi', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const hi = await hindiTexts();
  const password = await createOwnUser(request, TECHNICIAN);

  await page.goto('/login');
  await chooseHindi(page);
  await expect(page.getByRole('button', { name: hi('Sign In') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'login in Hindi');
  await expectNoSidewaysScroll(page, 'login in Hindi');
  await page.getByLabel(hi('Employee ID')).fill(TECHNICIAN.employeeId);
  await page.getByLabel(hi('Password')).fill(password);
  await page.getByRole('button', { name: hi('Sign In') }).click();
  await expectPath(page, '/purpose');
  await expect(page.getByText(hi('CoF Measurement'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/purpose in Hindi');
  await expectNoSidewaysScroll(page, '/purpose in Hindi');

  // The choice made before sign-in is now the account's: it follows the technician.
  await expect.poll(async () => ((await (await page.request.get('/api/auth/me')).json()) as { user: { language: string } }).user.language).toBe('hi');

  // Online: a CoF visit.
  await page.getByText(hi('CoF Measurement')).click();
  await expectPath(page, '/data-entry');
  await page.getByLabel(hi('Division/Railway')).selectOption('FZR/NR');
  await page.getByLabel(hi('Section'), { exact: true }).selectOption({ index: 1 });
  await page.getByLabel(hi('Curve Number')).selectOption({ index: 1 });
  await page.getByLabel(hi('CoF Value')).pressSequentially('28');
  await expectNoSeriousA11yViolations(page, 'CoF data entry in Hindi');
  await expectNoSidewaysScroll(page, 'CoF data entry in Hindi');
  await page.getByRole('button', { name: hi('Continue to Camera') }).click();
  await expectPath(page, '/camera');
  await page.getByRole('button', { name: hi('Open Camera') }).click();
  const capture = page.getByRole('button', { name: hi('Capture') });
  await expect(capture).toBeEnabled({ timeout: 15_000 });
  await capture.click();
  await expectNoSeriousA11yViolations(page, 'camera preview in Hindi');
  await page.getByRole('button', { name: hi('Submit Record') }).click();
  await expectPath(page, '/success');
  await expect(page.getByText(hi('Completed'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'success in Hindi');

  // Online: a Service visit with its findings.
  await page.goto('/data-entry?type=Service');
  await page.getByLabel(hi('Division/Railway')).selectOption('RTM/WR');
  await page.getByLabel(hi('Section'), { exact: true }).selectOption({ index: 1 });
  await page.getByLabel(hi('HKM Code')).selectOption({ index: 1 });
  await expect(page.getByLabel(hi('Curve Number'))).not.toHaveValue('');
  await page.getByRole('button', { name: hi('Log Service Details') }).click();
  await expectPath(page, '/service-details');
  await page.getByLabel(hi('Machine is working fine')).check();
  await expectNoSeriousA11yViolations(page, 'service details in Hindi');
  await expectNoSidewaysScroll(page, 'service details in Hindi');
  await page.getByRole('button', { name: hi('Continue') }).click();
  await expectPath(page, '/review');
  await page.getByRole('radio', { name: hi('Yes'), exact: true }).check();
  await expectNoSeriousA11yViolations(page, 'review in Hindi');
  await page.getByRole('button', { name: hi('Capture Image') }).click();
  await page.getByRole('button', { name: hi('Open Camera') }).click();
  await expect(page.getByRole('button', { name: hi('Capture') })).toBeEnabled({ timeout: 15_000 });
  await page.getByRole('button', { name: hi('Capture') }).click();
  await page.getByRole('button', { name: hi('Submit Record') }).click();
  await expectPath(page, '/success');
  await expect(page.getByText(hi('Completed'))).toBeVisible();

  const mine = async () => {
    const answer = await page.request.get(`/api/inspections?limit=50&technicianId=${TECHNICIAN.employeeId}`);
    return ((await answer.json()) as { logs: { technicianId: string }[] }).logs.filter((l) => l.technicianId === TECHNICIAN.employeeId).length;
  };
  expect(await mine()).toBe(2);

  // Offline: the app shell and the curve list are on the phone; a CoF visit waits in the outbox.
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect.poll(async () => (await readReferenceStore(page, 'count')) ?? 0, { timeout: 20_000 }).toBeGreaterThan(2);
  await context.setOffline(true);
  await page.goto('/data-entry?type=CoF');
  await page.getByLabel(hi('Division/Railway')).selectOption('FZR/NR');
  await page.getByLabel(hi('Section'), { exact: true }).selectOption({ index: 1 });
  await page.getByLabel(hi('Curve Number')).selectOption({ index: 2 });
  await page.getByLabel(hi('CoF Value')).pressSequentially('31');
  await page.getByRole('button', { name: hi('Continue to Camera') }).click();
  await page.getByRole('button', { name: hi('Open Camera') }).click();
  await expect(page.getByRole('button', { name: hi('Capture') })).toBeEnabled({ timeout: 15_000 });
  await page.getByRole('button', { name: hi('Capture') }).click();
  await page.getByRole('button', { name: hi('Submit Record') }).click();
  await expectPath(page, '/success');
  // The success screen says, in Hindi, that the record waits on the phone.
  await expect(page.getByRole('main')).toContainText(DEVANAGARI);
  await expectNoSeriousA11yViolations(page, 'offline success in Hindi');
  await page.goto('/outbox');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEVANAGARI);
  await expectNoSeriousA11yViolations(page, 'outbox in Hindi');
  await expectNoSidewaysScroll(page, 'outbox in Hindi');

  await context.setOffline(false);
  await expect.poll(mine, { timeout: 60_000 }).toBe(3);
});
