import { expect, test } from '@playwright/test';
import { ADMIN, expectPath, signIn } from './helpers.js';
import { expectOnlyPages, ownDate, recordIdPrefix, uploadRecords, watchListRequests } from './records-helpers.js';

test('the records view is usable on a phone: one column of cards, no sideways scrolling', async ({ page, playwright, baseURL }, testInfo) => {
  const date = ownDate(2005, testInfo);
  const q = recordIdPrefix(date);
  const uploaded = await uploadRecords(playwright, baseURL, date, 3);
  const seen = watchListRequests(page);

  await signIn(page, ADMIN.employeeId);
  await expectPath(page, '/purpose');
  await page.goto(`/admin?view=records-management&q=${q}`);
  await expect(page.getByText('Showing 1–3 of 3 records')).toBeVisible();

  const cards = page.getByRole('list', { name: 'Inspection records' }).getByRole('article');
  await expect(cards).toHaveCount(3);
  const boxes = await cards.evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('a phone viewport expected');
  for (const box of boxes) {
    // One column: every card starts at the same left edge and fills most of the width.
    expect(box.x).toBeCloseTo(boxes[0]?.x ?? 0, 0);
    expect(box.width).toBeGreaterThan(viewport.width * 0.8);
  }
  const [a, b] = boxes;
  expect(b?.y ?? 0).toBeGreaterThanOrEqual((a?.y ?? 0) + (a?.height ?? 0));

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // A thumb can hit the controls: checkboxes and buttons are at least 44 px high.
  const [first] = uploaded;
  if (!first) throw new Error('an upload expected');
  const select = page.getByRole('checkbox', { name: `Select ${first.recordId}` });
  const target = await select.evaluate((box) => (box.closest('label') ?? box).getBoundingClientRect().height);
  expect(target).toBeGreaterThanOrEqual(44);
  await select.tap();
  await expect(page.getByText('1 selected')).toBeVisible();
  for (const name of ['Delete Selected', 'Download Selected', 'Next']) {
    const height = await page.getByRole('button', { name }).evaluate((e) => e.getBoundingClientRect().height);
    expect(height, name).toBeGreaterThanOrEqual(44);
  }

  // The details fit the phone too.
  await page.getByRole('button', { name: `Open ${first.recordId}` }).click();
  await expect(page.getByRole('dialog', { name: first.recordId })).toBeVisible();
  const dialogOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(dialogOverflow).toBeLessThanOrEqual(0);
  expectOnlyPages(seen);
});
