import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';

const formWith = (page: Page, button: string) => page.locator('form').filter({ has: page.getByRole('button', { name: button }) });

test('an admin adds a user, who signs in with the phone and chooses a password; a reset ends their session and asks again; all is audited', async ({ page, browser }) => {
  const employeeId = `TEC${Date.now() % 1_000_000}`;
  const phone = '9876501234';

  await signIn(page, ADMIN.employeeId);
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await expectPath(page, '/admin');
  await page.getByRole('button', { name: 'User Management' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();

  const add = formWith(page, 'Add User');
  await add.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText('Validation Error')).toBeVisible();
  await expect(page.getByText('Please fill in all required fields')).toBeVisible();

  await add.getByLabel('Employee ID').fill(employeeId);
  await add.getByLabel('Name').fill('Pradeep Chouhan');
  await add.getByLabel('Phone').fill(phone);
  await expect(add.getByLabel('Role')).toHaveValue('Technician');
  await add.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText('User Added', { exact: true })).toBeVisible();
  await expect(page.getByText(employeeId).first()).toBeVisible();

  // The new technician signs in on their own phone with the phone number as password, and
  // must choose their own before anything else.
  const phoneContext = await browser.newContext({ viewport: { width: 412, height: 915 } });
  const technician = await phoneContext.newPage();
  const choosePassword = async (current: string, next: string) => {
    await expectPath(technician, '/change-password');
    await technician.getByLabel('Current password').fill(current);
    await technician.getByLabel('New password', { exact: true }).fill(next);
    await technician.getByLabel('Confirm new password').fill(next);
    await technician.getByRole('button', { name: 'Change Password' }).click();
    await expectPath(technician, '/purpose');
  };
  await signIn(technician, employeeId, phone);
  await choosePassword(phone, 'pradeep own 1');
  await expect(technician.getByText('Pradeep Chouhan')).toBeVisible();

  const reset = formWith(page, 'Reset Password');
  await reset.getByLabel('Employee ID').fill(employeeId);
  await reset.getByLabel('New Password').fill('new secret 2026');
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password Reset', { exact: true })).toBeVisible();

  // The technician's old session is over: the next load sends them to sign in.
  await technician.reload();
  await expectPath(technician, '/login');
  expect((await technician.request.get('/api/auth/me')).status()).toBe(401);
  // The Admin chose this one too: the technician replaces it at once.
  await signIn(technician, employeeId, 'new secret 2026');
  await choosePassword('new secret 2026', 'pradeep own 2');
  await phoneContext.close();

  const audit = await page.request.get('/api/audit?limit=200');
  expect(audit.status()).toBe(200);
  const { entries } = (await audit.json()) as { entries: Array<{ action: string; entityId: string; before: unknown; after: unknown }> };
  const mine = entries.filter((e) => e.entityId === employeeId);
  expect(mine.map((e) => e.action).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/create/i), expect.stringMatching(/reset/i)]));
  const created = mine.find((e) => /create/i.test(e.action));
  expect(created?.before).toBeNull();
  expect(created?.after).toMatchObject({ employeeId, name: 'Pradeep Chouhan', role: 'Technician' });
  // Each of the technician's own changes is recorded too, as done by them.
  expect(mine.filter((e) => e.action === 'user.change-password')).toHaveLength(2);
  expect(JSON.stringify(mine)).not.toMatch(/new secret|pradeep own|argon2|passwordHash/);
});
