import { expect, test } from '@playwright/test';
import { CLIENT, expectPath, signIn } from './helpers.js';

test('a Client sees only the reports and is told when a view is restricted', async ({ page }) => {
  await signIn(page, CLIENT.employeeId);
  await expectPath(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Reports & Analytics' })).toBeVisible();
  await expect(page.getByText(CLIENT.division).first()).toBeVisible();
  for (const report of ['PDF Reports', 'Excel Reports', 'SSE CoF Measurement', 'Service Reports']) {
    await expect(page.getByText(report).first()).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'User Management' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back to Main App' })).toHaveCount(0);

  await page.goto('/admin?view=user-management');
  const toast = page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Access Restricted' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("You don't have permission to access this section.");
  await expect(page.getByRole('heading', { name: 'Reports & Analytics' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'User Management' })).toHaveCount(0);
  // The server agrees, whatever the browser shows.
  expect((await page.request.get('/api/users')).status()).toBe(403);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
});
