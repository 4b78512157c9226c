/**
 * A technician's field steps in the browser, shared by the specs that work offline: ready for
 * a dead zone, a CoF or Service visit made with the fake camera, and the outbox as the phone
 * holds it.
 */
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, expectPath, signIn } from './helpers.js';

export interface QueuedRecord {
  localId: string;
  clientSubmissionId: string;
  status: string;
  lastError: string | null;
  /** The sha256 of the photo the phone keeps. */
  photoHash: string;
}

/** The outbox as the phone holds it (IndexedDB), with the sha256 of each stored photo. */
export function outbox(page: Page): Promise<QueuedRecord[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('hkmi-field');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('outbox')) return [];
      const records = await new Promise<
        Array<{ localId: string; clientSubmissionId: string; status: string; lastError: string | null; photo: Blob }>
      >((resolve, reject) => {
        const request = db.transaction('outbox').objectStore('outbox').getAll();
        request.onsuccess = () => resolve(request.result as never);
        request.onerror = () => reject(request.error);
      });
      return Promise.all(
        records.map(async (r) => {
          const digest = await crypto.subtle.digest('SHA-256', await r.photo.arrayBuffer());
          const photoHash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
          return { localId: r.localId, clientSubmissionId: r.clientSubmissionId, status: r.status, lastError: r.lastError, photoHash };
        }),
      );
    } finally {
      db.close();
    }
  });
}

/** Signed in, the app shell cached by the service worker and the curve list kept on the phone. */
export async function readyForTheField(page: Page, employeeId: string, password = DEMO_PASSWORD) {
  await signIn(page, employeeId, password);
  await expectPath(page, '/purpose');
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The curve list is kept on the phone once the app has warmed its reference data.
  await expect.poll(async () => (await readReferenceStore(page, 'count')) ?? 0, { timeout: 20_000 }).toBeGreaterThan(2);
}

/**
 * One read of the phone's reference store (the answers it keeps, by URL, in its IndexedDB):
 * how many, which URLs, or one kept answer's body; undefined before the store exists.
 */
export function readReferenceStore(page: Page, read: 'count'): Promise<number | undefined>;
export function readReferenceStore(page: Page, read: 'urls'): Promise<string[] | undefined>;
export function readReferenceStore(page: Page, read: 'body', url: string): Promise<unknown>;
export function readReferenceStore(page: Page, read: 'count' | 'urls' | 'body', url?: string): Promise<unknown> {
  return page.evaluate(
    async ({ read, url }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('hkmi-field');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        if (!db.objectStoreNames.contains('reference')) return undefined;
        const store = db.transaction('reference').objectStore('reference');
        const request: IDBRequest = read === 'count' ? store.count() : read === 'urls' ? store.getAllKeys() : store.get(url ?? '');
        const result = await new Promise<unknown>((resolve) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => resolve(undefined);
        });
        if (read === 'urls') return (result as IDBValidKey[] | undefined)?.map(String);
        return read === 'body' ? (result as { body?: unknown } | undefined)?.body : result;
      } finally {
        db.close();
      }
    },
    { read, url },
  );
}

/** The answer the phone keeps for a URL, or undefined. */
export const keptAnswer = (page: Page, url: string) => readReferenceStore(page, 'body', url);

async function captureAndSubmit(page: Page) {
  await expectPath(page, '/camera');
  await page.getByRole('button', { name: 'Open Camera' }).click();
  const capture = page.getByRole('button', { name: 'Capture' });
  await expect(capture).toBeEnabled({ timeout: 15_000 });
  await capture.click();
  await page.getByRole('button', { name: 'Submit Record' }).click();
  await expectPath(page, '/success');
}

/** The server's record ID on the success screen of a record sent at once. */
export async function recordIdOnSuccess(page: Page): Promise<string> {
  await expectPath(page, '/success');
  await expect(page.getByText('Completed')).toBeVisible();
  const text = (await page.locator('body').innerText()).match(/INS-\d{8}-[0-9A-Z]{6}/);
  if (!text) throw new Error('no record ID on the success screen');
  return text[0];
}

/** A CoF visit on the first FZR/NR curve, photo from the fake camera, submitted. */
export async function makeCofRecord(page: Page, cof = '28') {
  await page.goto('/data-entry?type=CoF');
  await page.getByLabel('Division/Railway').selectOption('FZR/NR');
  await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('Curve Number').selectOption({ index: 1 });
  await page.getByLabel('CoF Value').pressSequentially(cof);
  await page.getByRole('button', { name: 'Continue to Camera' }).click();
  await captureAndSubmit(page);
}

/** A Service visit (machine working) on the first RTM/WR HKM, photo from the fake camera, submitted. */
export async function makeServiceRecord(page: Page) {
  await page.goto('/data-entry?type=Service');
  await page.getByLabel('Division/Railway').selectOption('RTM/WR');
  await page.getByLabel('Section', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('HKM Code').selectOption({ index: 1 });
  await expect(page.getByLabel('Curve Number')).not.toHaveValue('');
  await recordServiceFindings(page, { update: 'Machine is working fine', machineWorking: true });
}

export type ServiceUpdateLabel = 'Machine is working fine' | 'Some part is broken' | 'Some part is stolen';

/**
 * A Service visit from its first step, the curve chosen: what was found (a part reported takes
 * the first category and its first item), whether the machine works, a photo from the fake
 * camera, submitted. Answers the part reported, as the form named it.
 */
export async function recordServiceFindings(
  page: Page,
  findings: { update: ServiceUpdateLabel; machineWorking: boolean },
): Promise<{ category: string; item: string } | null> {
  await page.getByRole('button', { name: 'Log Service Details' }).click();
  await expectPath(page, '/service-details');
  await page.getByLabel(findings.update).check();
  let part: { category: string; item: string } | null = null;
  if (findings.update !== 'Machine is working fine') {
    const category = page.getByLabel('Category');
    const item = page.getByLabel('Item Name');
    await category.selectOption({ index: 1 });
    await item.selectOption({ index: 1 });
    part = { category: await category.locator('option:checked').innerText(), item: await item.locator('option:checked').innerText() };
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectPath(page, '/review');
  await page.getByRole('radio', { name: findings.machineWorking ? 'Yes' : 'No', exact: true }).check();
  await page.getByRole('button', { name: 'Capture Image' }).click();
  await captureAndSubmit(page);
  return part;
}
