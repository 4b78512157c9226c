import { expect, test } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';

test('an admin signs in on a desktop browser and reaches the admin dashboard', async ({ page }) => {
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await expectPath(page, '/admin');
  await expect(page.getByText(ADMIN.name)).toBeVisible();
});
