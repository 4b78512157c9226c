/** The Actions view (issue 25) as the office reads it: its cards, and their photos once opened. */
import { expect, type Locator, type Page } from '@playwright/test';

export const actionCards = (page: Page) => page.getByRole('list', { name: 'Follow-up actions' }).getByRole('article');

/** The photo has arrived and decoded: the server made its thumbnail and the browser drew it. */
export async function expectPhotoShown(photo: Locator) {
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}
