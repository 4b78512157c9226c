import { expect, test } from '@playwright/test';
import { ADMIN, CLIENT, TECHNICIAN, expectPath, signIn } from './helpers.js';

test.describe('login screen', () => {
  test('shows the Connected banner, the demo sign-ins and the required-field messages', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByPlaceholder('Enter your Employee ID')).toBeVisible();
    await expect(page.getByText(ADMIN.employeeId)).toBeVisible();
    await expect(page.getByText(TECHNICIAN.employeeId)).toBeVisible();
    await expect(page.getByText('demo1234')).toBeVisible();

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Employee ID is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expectPath(page, '/');

    await page.getByLabel('Employee ID').fill(TECHNICIAN.employeeId);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Employee ID is required')).toBeHidden();
    await expect(page.getByText('Password is required')).toBeVisible();
  });

  test('a wrong password shows the Login Failed toast and stays on the login screen', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId, 'not-the-password');
    const toast = page.getByRole('alert').filter({ hasText: 'Login Failed' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Invalid credentials. Please try again.');
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('hkmi_user'))).toBeNull();
  });

  test('an anonymous visitor on a protected route is sent to /login', async ({ page }) => {
    for (const path of ['/purpose', '/data-entry?type=CoF', '/admin', '/machine-dashboard', '/camera']) {
      await page.goto(path);
      await expectPath(page, '/login');
    }
  });
});

test.describe('technician', () => {
  test('signs in to the purpose screen and is kept away from the admin screens', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await expectPath(page, '/purpose');
    await expect(page.getByText(TECHNICIAN.name)).toBeVisible();
    await expect(page.getByText(/·\s*Technician/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Admin Panel' })).toHaveCount(0);
    await expect(page.getByText('Every 15 days routine check')).toBeVisible();
    await expect(page.getByText('Every 30 days friction test')).toBeVisible();

    await page.goto('/admin');
    await expectPath(page, '/purpose');
    await page.goto('/machine-dashboard');
    await expectPath(page, '/purpose');
    await page.goto('/');
    await expectPath(page, '/purpose');
  });

  test('the purpose cards open the entry form of their type', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await page.getByText('CoF Measurement').click();
    await expect(page).toHaveURL(/\/data-entry\?type=CoF$/);
    await page.goBack();
    await page.getByText('Service Inspection').click();
    await expect(page).toHaveURL(/\/data-entry\?type=Service$/);
  });

  test('steps that need an earlier step send the technician back to /purpose', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await expectPath(page, '/purpose');
    for (const path of ['/review', '/camera', '/success']) {
      await page.goto(path);
      await expectPath(page, '/purpose');
    }
  });

  test('the session survives a reload, and logout ends it', async ({ page }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await expectPath(page, '/purpose');
    await page.reload();
    await expectPath(page, '/purpose');
    await expect(page.getByText(TECHNICIAN.name)).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('hkmi_user'))).toBeNull();
    // The server ended the session too: the cookie no longer opens anything.
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(401);
    await page.goto('/purpose');
    await expectPath(page, '/login');
  });

  test('a stored user whose server session has ended is sent to sign in', async ({ page, context }) => {
    await signIn(page, TECHNICIAN.employeeId);
    await expectPath(page, '/purpose');
    await context.clearCookies();
    await page.reload();
    await expectPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('hkmi_user'))).toBeNull();
  });
});

test.describe('admin', () => {
  test('signs in to the purpose screen with an Admin Panel button, and may open the admin screens', async ({ page }) => {
    await signIn(page, ADMIN.employeeId);
    await expectPath(page, '/purpose');
    await expect(page.getByText(ADMIN.name)).toBeVisible();
    await page.getByRole('button', { name: 'Admin Panel' }).click();
    await expectPath(page, '/admin');
    await expect(page.getByRole('button', { name: 'Back to Main App' })).toBeVisible();
    await page.goto('/machine-dashboard');
    await expectPath(page, '/machine-dashboard');
  });
});

test.describe('client', () => {
  test('signs in to /admin, is kept out of the field flow, and Back reads Logout', async ({ page }) => {
    await signIn(page, CLIENT.employeeId);
    await expectPath(page, '/admin');
    await expect(page.getByText(CLIENT.division).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to Main App' })).toHaveCount(0);

    for (const path of ['/', '/purpose', '/data-entry?type=Service']) {
      await page.goto(path);
      await expectPath(page, '/admin');
    }

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    await page.goto('/admin');
    await expectPath(page, '/login');
  });
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});
