/**
 * Switching an account off (issue 23): an Admin deactivates a technician in User Management;
 * the technician's phone, in the middle of a CoF reading, is signed out at its next request and
 * keeps the record; signing in again is refused as a wrong password would be, until the Admin
 * reactivates them, and then the kept record is sent. The screens involved pass axe-core at 360 px.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from './a11y.js';
import { outbox, readyForTheField } from './field-helpers.js';
import { ADMIN, expectPath, signIn } from './helpers.js';
import { apiSession } from './machine-helpers.js';

test('an Admin switches a technician off mid-use, and on again', async ({ page, browser, playwright }, testInfo) => {
  // Two people, two browsers, a camera and an outbox: longer than one screen's test.
  test.slow();
  const employeeId = `TOFF${Date.now().toString(36).toUpperCase()}`;
  const phone = `9${String(Date.now()).slice(-9)}`;
  const password = 'my own pass 1';

  // A technician with a password of their own.
  const admin = await apiSession(playwright, testInfo, ADMIN.employeeId);
  expect((await admin.post('/api/users', { data: { employeeId, name: 'Sunil Off', phone, role: 'Technician' } })).status()).toBe(201);
  await admin.dispose();
  const own = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  expect((await own.post('/api/auth/login', { data: { employeeId, password: phone } })).status()).toBe(200);
  expect((await own.post('/api/auth/change-password', { data: { currentPassword: phone, newPassword: password } })).status()).toBe(200);
  await own.dispose();

  // The technician at work on a 360 px phone, ready for the field.
  await page.setViewportSize({ width: 360, height: 740 });
  await readyForTheField(page, employeeId, password);
  await expect(page.getByText('Sunil Off')).toBeVisible();

  // The Admin, at a desk, switches the account off.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const adminPage = await desk.newPage();
  await signIn(adminPage, ADMIN.employeeId);
  // Signed in before moving on: a navigation while the sign-in request is in flight cancels it.
  await expect(adminPage).not.toHaveURL(/\/login/);
  await adminPage.goto('/admin?view=user-management');
  const row = adminPage.getByRole('listitem').filter({ hasText: employeeId });
  await row.getByRole('button', { name: `Deactivate Sunil Off (${employeeId})` }).click();
  const dialog = adminPage.getByRole('alertdialog', { name: 'Deactivate Sunil Off?' });
  await expect(dialog).toContainText('is signed out at once on every device');
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(adminPage.getByText('User Deactivated', { exact: true })).toBeVisible();
  await expect(row.getByText('Inactive', { exact: true })).toBeVisible();

  // Mid-use: the technician submits a CoF reading. The server refuses the session; the record
  // stays on the phone and the app asks for a sign-in.
  // (Within the app, as a technician taps: a reload would ask the server at once.)
  await page.getByRole('link', { name: /CoF Measurement/ }).click();
  await expectPath(page, '/data-entry');
  await page.getByLabel('Division/Railway').selectOption('FZR/NR');
  await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('Curve Number').selectOption({ index: 1 });
  await page.getByLabel('CoF Value').pressSequentially('21');
  await page.getByRole('button', { name: 'Continue to Camera' }).click();
  await page.getByRole('button', { name: 'Open Camera' }).click();
  const capture = page.getByRole('button', { name: 'Capture' });
  await expect(capture).toBeEnabled({ timeout: 15_000 });
  await capture.click();
  await page.getByRole('button', { name: 'Submit Record' }).click();
  await expect(page.getByText('Sign In Again', { exact: true })).toBeVisible();
  await expectPath(page, '/login');
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  const kept = await outbox(page);
  expect(kept).toHaveLength(1);
  expect(kept[0]?.status).toBe('needs-sign-in');
  // Signing in again is refused exactly as a wrong password is.
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login Failed', { exact: true })).toBeVisible();
  await expect(page.getByText('Invalid credentials. Please try again.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the login screen after a refused sign-in, 360 px');
  await expectNoSidewaysScroll(page, 'the login screen, 360 px');

  // User Management at 360 px, with the inactive account and the dialog, is readable by all.
  await adminPage.setViewportSize({ width: 360, height: 740 });
  await expectNoSeriousA11yViolations(adminPage, 'User Management with an inactive user, 360 px');
  await expectNoSidewaysScroll(adminPage, 'User Management, 360 px');

  // On again: the technician signs in.
  await row.getByRole('button', { name: `Reactivate Sunil Off (${employeeId})` }).click();
  await expect(adminPage.getByText('User Reactivated', { exact: true })).toBeVisible();
  await expect(row.getByText('Inactive', { exact: true })).toHaveCount(0);
  const other = adminPage.getByRole('listitem').filter({ hasText: 'TEC2001' });
  await other.getByRole('button', { name: /^Deactivate/ }).click();
  await expectNoSeriousA11yViolations(adminPage, 'the Deactivate dialog, 360 px');
  await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await desk.close();

  // Signed in again, the phone sends the record it kept: nothing was lost.
  await signIn(page, employeeId, password);
  await expectPath(page, '/purpose');
  await expect.poll(async () => (await outbox(page)).length, { timeout: 30_000 }).toBe(0);
  const records = await page.request.get(`/api/inspections?technicianId=${employeeId}`);
  expect(records.status()).toBe(200);
  const { logs } = (await records.json()) as { logs: Array<{ technicianId: string; technicianName: string; cofValue: string | null }> };
  expect(logs).toEqual([expect.objectContaining({ technicianId: employeeId, technicianName: 'Sunil Off', cofValue: '0.21' })]);
});
