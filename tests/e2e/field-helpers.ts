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
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const request = indexedDB.open('hkmi-field');
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
          try {
            if (!db.objectStoreNames.contains('reference')) return 0;
            return await new Promise<number>((resolve) => {
              const request = db.transaction('reference').objectStore('reference').count();
              request.onsuccess = () => resolve(request.result);
              request.onerror = () => resolve(0);
            });
          } finally {
            db.close();
          }
        }),
      { timeout: 20_000 },
    )
    .toBeGreaterThan(2);
}

async function captureAndSubmit(page: Page) {
  await expectPath(page, '/camera');
  await page.getByRole('button', { name: 'Open Camera' }).click();
  const capture = page.getByRole('button', { name: 'Capture' });
  await expect(capture).toBeEnabled({ timeout: 15_000 });
  await capture.click();
  await page.getByRole('button', { name: 'Submit Record' }).click();
  await expectPath(page, '/success');
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
  await page.getByRole('button', { name: 'Log Service Details' }).click();
  await page.getByLabel('Machine is working fine').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radio', { name: 'Yes', exact: true }).check();
  await page.getByRole('button', { name: 'Capture Image' }).click();
  await captureAndSubmit(page);
}
