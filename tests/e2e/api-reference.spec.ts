/**
 * The API reference (issue 29) on a 360 px phone: an Admin opens it from the admin menu, finds
 * an operation by its group, opens it to read who may call it, and downloads the OpenAPI
 * document; the page passes axe-core and does not scroll sideways. A technician is refused it.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from './a11y.js';
import { ADMIN, TECHNICIAN, signIn } from './helpers.js';

test('an Admin reads the API reference and downloads the OpenAPI document, at 360 px', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, ADMIN.employeeId);
  // Signed in before moving on: a navigation while the sign-in request is in flight cancels it.
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Open the API Reference' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'API Reference' })).toBeVisible();

  await page.getByRole('navigation', { name: 'API groups' }).getByRole('link', { name: 'Curves' }).click();
  const curves = page.getByRole('region', { name: 'Curves' });
  const edit = curves.locator('details').filter({ hasText: '/api/admin/curves/{section}/{curveNumber}/{line}' });
  await edit.getByText('/api/admin/curves/{section}/{curveNumber}/{line}').click();
  await expect(edit.getByText('Signed-in users with the role: Admin')).toBeVisible();
  await expect(edit.getByRole('region', { name: 'Request body of PUT /api/admin/curves/{section}/{curveNumber}/{line}' })).toContainText('curveNumber');
  await expectNoSeriousA11yViolations(page, 'API Reference with an operation open, 360 px');
  await expectNoSidewaysScroll(page, 'API Reference with an operation open, 360 px');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the OpenAPI document (JSON)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('openapi.json');
  const document = JSON.parse(await readFile(await file.path(), 'utf8')) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toBe('3.1.0');
  expect(Object.keys(document.paths)).toContain('/api/inspections/upload');
});

test('a technician is refused the OpenAPI document', async ({ page }) => {
  await signIn(page, TECHNICIAN.employeeId);
  await expect(page).not.toHaveURL(/\/login/);
  expect((await page.request.get('/api/openapi.json')).status()).toBe(403);
});
