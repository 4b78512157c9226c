import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';
import { deletePhotoFile, expectOnlyPages, listedRecordIds, ownDate, recordIdPrefix, uploadRecords, watchListRequests } from './records-helpers.js';

/*
 * Each test owns its records: uploaded here by the demo technician with a date of its own
 * (long past, see ownDate), and found by a record ID search on that date, so Select all never
 * reaches the records of other specs running against the same server.
 */

async function openRecordsView(page: Page, q: string) {
  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto(`/admin?view=records-management&q=${encodeURIComponent(q)}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Inspection Records & Images' })).toBeVisible();
  await expect(page.getByLabel('Record ID')).toHaveValue(q);
}

const card = (page: Page, recordId: string) => page.getByRole('article', { name: recordId });
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

test('select records and delete the selected: they leave the view and the API', async ({ page, playwright, baseURL }, testInfo) => {
  const date = ownDate(2001, testInfo);
  const q = recordIdPrefix(date);
  const [first, second, third] = await uploadRecords(playwright, baseURL, date, 3);
  if (!first || !second || !third) throw new Error('three uploads expected');
  const seen = watchListRequests(page);

  await openRecordsView(page, q);
  await expect(page.getByText('Showing 1–3 of 3 records')).toBeVisible();
  await page.getByRole('checkbox', { name: `Select ${first.recordId}` }).check();
  await page.getByRole('checkbox', { name: `Select ${third.recordId}` }).check();
  await expect(page.getByText('2 selected')).toBeVisible();

  await page.getByRole('button', { name: 'Delete Selected' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Selected Images' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete Selected' }).click();

  await expect(notifications(page).getByText('Images Deleted', { exact: true })).toBeVisible();
  await expect(notifications(page).getByText('2 images deleted successfully')).toBeVisible();
  await expect(page.getByText('Showing 1–1 of 1 records')).toBeVisible();
  await expect(card(page, first.recordId)).toHaveCount(0);
  await expect(card(page, third.recordId)).toHaveCount(0);
  await expect(card(page, second.recordId)).toBeVisible();
  await expect(page.getByText('0 selected')).toBeVisible();

  expect(await listedRecordIds(page, q)).toEqual({ ids: [second.recordId], total: 1 });
  expectOnlyPages(seen);
});

test('delete one record from its details after a confirmation', async ({ page, playwright, baseURL }, testInfo) => {
  const date = ownDate(2002, testInfo);
  const q = recordIdPrefix(date);
  const [kept, doomed] = await uploadRecords(playwright, baseURL, date, 2);
  if (!kept || !doomed) throw new Error('two uploads expected');
  const seen = watchListRequests(page);

  await openRecordsView(page, q);
  await card(page, doomed.recordId).getByRole('button', { name: `Open ${doomed.recordId}` }).click();
  const details = page.getByRole('dialog', { name: doomed.recordId });
  await expect(details).toBeVisible();
  // The full photo, really loaded from the server.
  const photo = details.getByRole('img', { name: `Photo of ${doomed.recordId}` });
  await expect(photo).toHaveAttribute('src', `/api/inspections/${doomed.recordId}/image`);
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
  await expect(details).toContainText('CoF Value');

  await details.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Record' });
  await expect(confirm).toContainText(doomed.recordId);
  await confirm.getByRole('button', { name: 'Delete' }).click();

  await expect(notifications(page).getByText('Record Deleted', { exact: true })).toBeVisible();
  await expect(details).toHaveCount(0);
  await expect(card(page, doomed.recordId)).toHaveCount(0);
  await expect(card(page, kept.recordId)).toBeVisible();
  await expect(page.getByText('Showing 1–1 of 1 records')).toBeVisible();

  expect(await listedRecordIds(page, q)).toEqual({ ids: [kept.recordId], total: 1 });
  expect((await page.request.get(`/api/inspections/${doomed.recordId}/image`)).status()).toBe(404);
  expectOnlyPages(seen);
});

test('Select all and Download Selected give one zip named with the count; one record gives its jpg', async ({ page, playwright, baseURL }, testInfo) => {
  const date = ownDate(2003, testInfo);
  const q = recordIdPrefix(date);
  const uploaded = await uploadRecords(playwright, baseURL, date, 3);
  const seen = watchListRequests(page);

  await openRecordsView(page, q);
  await expect(page.getByText('Showing 1–3 of 3 records')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(page.getByText('3 selected')).toBeVisible();
  for (const { recordId } of uploaded) await expect(page.getByRole('checkbox', { name: `Select ${recordId}` })).toBeChecked();

  const zipDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Selected' }).click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toBe('inspection-images-3.zip');
  const zipBytes = await readFile(await zip.path());
  expect(zipBytes.subarray(0, 2).toString('latin1')).toBe('PK');

  const [one] = uploaded;
  if (!one) throw new Error('an upload expected');
  const jpgDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download ${one.recordId}` }).click();
  const jpg = await jpgDownload;
  expect(jpg.suggestedFilename()).toMatch(/\.jpe?g$/);
  expect(jpg.suggestedFilename()).toContain(one.recordId);
  const jpgBytes = await readFile(await jpg.path());
  expect([...jpgBytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expectOnlyPages(seen);
});

test("a record whose photo is missing on the server shows 'Image Error' on its tile", async ({ page, playwright, baseURL }, testInfo) => {
  const date = ownDate(2004, testInfo);
  const q = recordIdPrefix(date);
  const [broken, fine] = await uploadRecords(playwright, baseURL, date, 2);
  if (!broken || !fine) throw new Error('two uploads expected');
  await deletePhotoFile(broken.imageHash);
  const seen = watchListRequests(page);

  await openRecordsView(page, q);
  await expect(page.getByText('Showing 1–2 of 2 records')).toBeVisible();
  // Thumbnails are made on first request; on a cold server that may take a few seconds.
  const made = { timeout: 15_000 };
  await expect(card(page, broken.recordId).getByText('Image Error', { exact: true })).toBeVisible(made);
  // The other tile shows the server's thumbnail.
  const thumb = card(page, fine.recordId).getByRole('img', { name: `Photo of ${fine.recordId}` });
  await expect(thumb).toHaveAttribute('src', new RegExp(`/api/inspections/${fine.recordId}/thumbnail`));
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), made).toBe(true);
  await expect(card(page, fine.recordId).getByText('Image Error')).toHaveCount(0);

  // The details of the broken record say the same of the full photo.
  await card(page, broken.recordId).getByRole('button', { name: `Open ${broken.recordId}` }).click();
  await expect(page.getByRole('dialog', { name: broken.recordId }).getByText('Image Error', { exact: true })).toBeVisible();
  expectOnlyPages(seen);
});
