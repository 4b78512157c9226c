/**
 * Every admin view in Hindi at a desktop's size (issue 27): the switch in the admin header turns
 * the whole shell and each view to Hindi at once, with no serious axe-core violation and no
 * English heading left behind.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y.js';
import { expectPath } from './helpers.js';
import { chooseHindi, createOwnUser, hindiTexts } from './hindi-texts.js';

const ADMIN_HI = { employeeId: 'ADM1901', name: 'कविता शर्मा', role: 'Admin' as const, phone: '9826019901' };

/** Each view of the admin shell an Admin opens, with its English title (web/src/features/admin/admin-views.tsx; the machine figures' editor is the owner's). */
const VIEWS: ReadonlyArray<[view: string, title: string]> = [
  ['data-management', 'Data Management'],
  ['records-management', 'Inspection Records & Images'],
  ['curve-details', 'Curve Details'],
  ['station-details', 'Station Details'],
  ['reports', 'Reports & Analytics'],
  ['inspection-reports', 'PDF Reports'],
  ['curve-maintenance', 'Excel Reports'],
  ['sse-reports', 'SSE CoF Measurement'],
  ['service-reports', 'Service Reports'],
  ['actions', 'Follow-up Actions'],
  ['analytics', 'Analytics'],
  ['user-management', 'User Management'],
  ['api-reference', 'API Reference'],
];

test('an admin switches the admin shell to Hindi and every view reads in Hindi', async ({ page, request }) => {
  test.setTimeout(240_000);
  const hi = await hindiTexts();
  const password = await createOwnUser(request, ADMIN_HI);

  await page.goto('/login');
  await page.getByLabel('Employee ID').fill(ADMIN_HI.employeeId);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectPath(page, '/purpose');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Administration' })).toBeVisible();

  // The switch in the admin header.
  await chooseHindi(page);
  await expect(page.getByRole('heading', { name: hi('Administration') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'admin menu in Hindi');

  for (const [view, title] of VIEWS) {
    await page.goto(`/admin?view=${view}`);
    await expect(page.getByRole('heading', { name: hi(title), exact: true }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: title, exact: true })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `${view} in Hindi`);
  }

  // The choice stays on the account: a new sign-in opens in Hindi.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('Employee ID').fill(ADMIN_HI.employeeId);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
});
