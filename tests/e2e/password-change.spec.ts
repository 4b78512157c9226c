/**
 * First sign-in password change (issue 15): a user whose password an Admin chose (added with
 * their phone, or reset) must choose their own before anything else; anyone may change theirs
 * from the purpose screen; records waiting in the outbox survive all of it and are sent once
 * the new password is chosen. Every user here is new and unique to the run: the demo users'
 * passwords are never changed.
 */
import { expect, test, type APIRequestContext, type Page, type PlaywrightWorkerArgs, type TestInfo } from '@playwright/test';
import { makeCofRecord, outbox, readyForTheField } from './field-helpers.js';
import { expectPath, signIn } from './helpers.js';
import { apiSession } from './machine-helpers.js';

let serial = 0;
/** A new technician's employee ID and phone, unique to this run and test. */
function newPerson(prefix: string) {
  serial += 1;
  const stamp = `${Date.now()}${serial}`;
  return { employeeId: `${prefix}${Date.now().toString(36).toUpperCase()}${serial}`, phone: `9${stamp.slice(-9)}` };
}

/** The demo Admin adds a technician (their phone becomes the first password). */
async function adminAdds(playwright: PlaywrightWorkerArgs['playwright'], testInfo: TestInfo, person: { employeeId: string; phone: string }, name: string) {
  const admin = await apiSession(playwright, testInfo, 'ADM1001');
  try {
    const added = await admin.post('/api/users', { data: { employeeId: person.employeeId, name, phone: person.phone, role: 'Technician' } });
    expect(added.status(), await added.text()).toBe(201);
  } finally {
    await admin.dispose();
  }
}

/** The user, in a session of their own, replaces the Admin's password through the API. */
async function changeThroughApi(playwright: PlaywrightWorkerArgs['playwright'], testInfo: TestInfo, employeeId: string, current: string, next: string) {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    expect((await request.post('/api/auth/login', { data: { employeeId, password: current } })).status()).toBe(200);
    const changed = await request.post('/api/auth/change-password', { data: { currentPassword: current, newPassword: next } });
    expect(changed.status(), await changed.text()).toBe(200);
  } finally {
    await request.dispose();
  }
}

async function loginStatus(playwright: PlaywrightWorkerArgs['playwright'], testInfo: TestInfo, employeeId: string, password: string) {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    return (await request.post('/api/auth/login', { data: { employeeId, password } })).status();
  } finally {
    await request.dispose();
  }
}

async function fillChangeForm(page: Page, current: string, next: string, confirm = next) {
  await page.getByLabel('Current password').fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password').fill(confirm);
  await page.getByRole('button', { name: 'Change Password' }).click();
}

test('an Admin adds a technician, who must choose a new password before anything else', async ({ page, playwright }, testInfo) => {
  const person = newPerson('PWA');
  await adminAdds(playwright, testInfo, person, 'Kishore Bairwa');

  await signIn(page, person.employeeId, person.phone);
  await expectPath(page, '/change-password');
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  await expect(page.getByText('Your password was set by an administrator. Choose your own password to continue.')).toBeVisible();
  await expect(page.getByText('At least 8 characters, and not your employee ID or phone number.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();

  // Held there: the app's screens send them back, and the server refuses the calls behind them.
  for (const path of ['/purpose', '/data-entry?type=CoF', '/outbox', '/']) {
    await page.goto(path);
    await expectPath(page, '/change-password');
  }
  const refused = await page.request.get('/api/inspections');
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED' });

  // The phone again is refused under the field; a wrong current password is named by the server.
  await fillChangeForm(page, person.phone, person.phone);
  await expect(page.getByText('The new password must not be your phone number')).toBeVisible();
  await fillChangeForm(page, 'not my password', 'kishore rail 26');
  await expect(page.getByText('Current password is incorrect')).toBeVisible();
  await expectPath(page, '/change-password');

  await fillChangeForm(page, person.phone, 'kishore rail 26');
  await expectPath(page, '/purpose');
  await expect(page.getByText('Kishore Bairwa')).toBeVisible();
  await expect(page.getByText('Password Changed')).toBeVisible();
  expect((await page.request.get('/api/inspections')).status()).toBe(200);
  await page.reload();
  await expectPath(page, '/purpose');

  // From now on the new password signs in straight to the purpose screen; the phone no longer does.
  expect(await loginStatus(playwright, testInfo, person.employeeId, person.phone)).toBe(401);
  await page.getByRole('button', { name: 'Logout' }).click();
  await signIn(page, person.employeeId, 'kishore rail 26');
  await expectPath(page, '/purpose');
});

test('a technician changes their password of their own accord from the purpose screen', async ({ page, playwright }, testInfo) => {
  const person = newPerson('PWV');
  await adminAdds(playwright, testInfo, person, 'Meena Kumari');
  await changeThroughApi(playwright, testInfo, person.employeeId, person.phone, 'first own one 1');

  await signIn(page, person.employeeId, 'first own one 1');
  await expectPath(page, '/purpose');
  await page.getByRole('link', { name: 'Change password' }).click();
  await expectPath(page, '/change-password');
  await expect(page.getByText(/set by an administrator/)).toHaveCount(0);

  // Back leaves it unchanged.
  await page.getByRole('button', { name: /Back/ }).click();
  await expectPath(page, '/purpose');
  await page.getByRole('link', { name: 'Change password' }).click();

  await fillChangeForm(page, 'first own one 1', 'second own one 2', 'second own one 3');
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await fillChangeForm(page, 'first own one 1', 'second own one 2');
  await expectPath(page, '/purpose');
  await expect(page.getByText('Password Changed')).toBeVisible();

  expect(await loginStatus(playwright, testInfo, person.employeeId, 'first own one 1')).toBe(401);
  expect(await loginStatus(playwright, testInfo, person.employeeId, 'second own one 2')).toBe(200);
});

async function serverHashesOf(admin: APIRequestContext, employeeId: string): Promise<string[]> {
  const response = await admin.get(`/api/inspections?technicianId=${encodeURIComponent(employeeId)}&limit=50`);
  expect(response.status()).toBe(200);
  const { logs } = (await response.json()) as { logs: Array<{ imageHash: string }> };
  return logs.map((l) => l.imageHash);
}

test('records waiting in the outbox survive an Admin reset and are sent once the new password is chosen', async ({ page, context, playwright }, testInfo) => {
  test.setTimeout(150_000);
  const person = newPerson('PWO');
  await adminAdds(playwright, testInfo, person, 'Outbox Owner');
  await changeThroughApi(playwright, testInfo, person.employeeId, person.phone, 'field own one 1');
  await readyForTheField(page, person.employeeId, 'field own one 1');

  // A dead zone: two records wait on the phone.
  await context.setOffline(true);
  for (const cof of ['27', '31']) {
    await makeCofRecord(page, cof);
    await expect(page.getByText('Queued')).toBeVisible();
  }
  await page.goto('/purpose');
  await expect(page.getByText(/2 records waiting/).first()).toBeVisible();
  const queued = await outbox(page);
  expect(queued).toHaveLength(2);

  // Meanwhile an Admin resets the technician's password: their session ends.
  const admin = await apiSession(playwright, testInfo, 'ADM1001');
  try {
    const reset = await admin.post('/api/auth/reset-password', { data: { employeeId: person.employeeId, newPassword: 'admin chose 77' } });
    expect(reset.status()).toBe(200);

    // Back in coverage, the phone learns the session is over and asks for a sign-in; nothing is lost.
    await context.setOffline(false);
    await expectPath(page, '/login');
    expect(await outbox(page)).toHaveLength(2);

    await signIn(page, person.employeeId, 'admin chose 77');
    await expectPath(page, '/change-password');
    await expect(page.getByText('2 records waiting to be sent.')).toBeVisible();
    // Still on the phone, not on the server, and not marked failed.
    const held = await outbox(page);
    expect(held).toHaveLength(2);
    expect(held.map((r) => r.status)).not.toContain('failed');
    expect(await serverHashesOf(admin, person.employeeId)).toEqual([]);
    await page.goto('/purpose');
    await expectPath(page, '/change-password');

    await fillChangeForm(page, 'admin chose 77', 'field own two 2');
    await expectPath(page, '/purpose');

    // Sent after the change: the server has both, with the photos taken, once each.
    await expect.poll(async () => (await outbox(page)).length, { timeout: 45_000 }).toBe(0);
    const stored = await serverHashesOf(admin, person.employeeId);
    expect(stored).toHaveLength(2);
    expect(stored.sort()).toEqual(queued.map((r) => r.photoHash).sort());
    await expect(page.getByText(/records? waiting/)).toHaveCount(0);
  } finally {
    await admin.dispose();
  }
});
