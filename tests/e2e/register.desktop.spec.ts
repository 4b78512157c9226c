import { expect, test } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';
import { registerTests } from './register-flows.js';

registerTests('desktop');

test('the curve register goes out as XLSX and comes back in unchanged', async ({ page }) => {
  await signIn(page, ADMIN.employeeId);
  // Signed in (the session cookie is set) before the page is opened by its address.
  await expectPath(page, '/purpose');
  await page.goto('/admin?view=data-management');
  await page.getByLabel('Export division').selectOption('JBP/WCR');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Curves' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Curve_Details_JBP-WCR_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const path = await file.path();
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');

  const total = ((await (await page.request.get('/api/consolidated-curves?division=JBP%2FWCR&limit=1')).json()) as { total: number }).total;
  expect(total).toBeGreaterThan(0);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import Curve Data' }).click();
  await (await chooser).setFiles({ name: file.suggestedFilename(), mimeType: 'application/octet-stream', buffer: bytes });
  const preview = page.getByRole('dialog', { name: 'Import preview' });
  await expect(preview.getByText(`${total} rows are valid.`)).toBeVisible();
  await expect(preview.getByRole('definition').nth(2)).toHaveText(String(total));
  await preview.getByRole('button', { name: 'Cancel' }).click();
  await expect(preview).toBeHidden();
});
