/**
 * Dead-zone behaviour: records made without network wait in the phone's outbox (IndexedDB),
 * survive reloads, and reach the server exactly once when the network returns.
 */
import { expect, test, type Page } from '@playwright/test';
import { makeCofRecord, makeServiceRecord, outbox, readyForTheField } from './field-helpers.js';

/**
 * A technician's record count on the server and the photo hashes of their newest 500 records
 * (newest first, so a record just sent is among them). The demo's year of history is more than
 * a page: counts come from the total, never from the page's length; and they are the
 * technician's own, so another spec's upload meanwhile is not counted.
 */
async function serverRecords(page: Page, technicianId: string): Promise<{ total: number; hashes: string[] }> {
  const response = await page.request.get(`/api/inspections?${new URLSearchParams({ limit: '500', technicianId }).toString()}`);
  expect(response.status()).toBe(200);
  const { logs, total } = (await response.json()) as { logs: Array<{ imageHash: string }>; total: number };
  return { total, hashes: logs.map((l) => l.imageHash) };
}

test('records made offline wait on the phone through reloads and arrive exactly once', async ({ page, context }) => {
  const technician = 'TEC2003';
  test.setTimeout(120_000);
  await readyForTheField(page, technician);
  const before = await serverRecords(page, technician);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Service Inspection')).toBeVisible();

  await makeCofRecord(page);
  await expect(page.getByText('Queued')).toBeVisible();
  await expect(page.getByText(/LOCAL-[0-9A-F]{8}/)).toBeVisible();
  await makeServiceRecord(page);
  await expect(page.getByText('Queued')).toBeVisible();

  await page.goto('/purpose');
  await expect(page.getByText(/2 records? waiting/i).first()).toBeVisible();
  await page.reload();
  await expect(page.getByText(/2 records? waiting/i).first()).toBeVisible();
  const queued = await outbox(page);
  expect(queued).toHaveLength(2);

  await context.setOffline(false);
  await expect.poll(async () => (await outbox(page)).length, { timeout: 45_000 }).toBe(0);
  await expect(page.getByText(/records? waiting/i)).toHaveCount(0);

  const after = await serverRecords(page, technician);
  expect(after.total - before.total).toBe(2);
  for (const record of queued) {
    // Same bytes as captured, stored once.
    expect(after.hashes.filter((hash) => hash === record.photoHash)).toHaveLength(1);
  }
});

test('a retry after a lost response leaves one record', async ({ page }) => {
  const technician = 'TEC2004';
  test.setTimeout(90_000);
  await readyForTheField(page, technician);
  const before = await serverRecords(page, technician);

  // The server stores the first upload, but its answer never reaches the phone.
  let lostAnswers = 0;
  await page.route('**/api/inspections/upload', async (route) => {
    if (lostAnswers === 0) {
      lostAnswers += 1;
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });

  await makeCofRecord(page, '41');
  await expect(page.getByText('Queued')).toBeVisible();
  const [queued] = await outbox(page);
  if (!queued) throw new Error('the record is not in the outbox');
  expect((await serverRecords(page, technician)).hashes.filter((h) => h === queued.photoHash)).toHaveLength(1);

  await page.goto('/outbox');
  await page.getByRole('button', { name: 'Send now' }).click();
  await expect.poll(async () => (await outbox(page)).length, { timeout: 30_000 }).toBe(0);
  const after = await serverRecords(page, technician);
  expect(after.total - before.total).toBe(1);
  expect(after.hashes.filter((h) => h === queued.photoHash)).toHaveLength(1);
});

test('twenty records queued offline drain when the network returns', async ({ page, context }) => {
  const technician = 'TEC2005';
  test.setTimeout(180_000);
  await readyForTheField(page, technician);
  const before = (await serverRecords(page, technician)).total;

  await context.setOffline(true);
  await makeCofRecord(page, '35');
  await expect(page.getByText('Queued')).toBeVisible();
  // Nineteen more like it, as a long day in a dead zone would leave: new submission ids,
  // the same kind of photo.
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('hkmi-field');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const store = () => db.transaction('outbox', 'readwrite').objectStore('outbox');
    const [first] = await new Promise<Array<Record<string, unknown> & { metadata: Record<string, unknown>; createdAt: number }>>((resolve) => {
      const request = store().getAll();
      request.onsuccess = () => resolve(request.result as never);
    });
    if (!first) throw new Error('no queued record to copy');
    for (let i = 1; i < 20; i++) {
      const clientSubmissionId = crypto.randomUUID();
      const copy = {
        ...first,
        localId: `LOCAL-${clientSubmissionId.replace(/-/g, '').slice(0, 8).toUpperCase()}`,
        clientSubmissionId,
        metadata: { ...first.metadata, clientSubmissionId },
        createdAt: first.createdAt + i,
      };
      await new Promise<void>((resolve, reject) => {
        const request = store().put(copy);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      });
    }
    db.close();
  });
  await page.goto('/purpose');
  await expect(page.getByText(/20 records waiting/i).first()).toBeVisible();

  const started = Date.now();
  await context.setOffline(false);
  await expect.poll(async () => (await outbox(page)).length, { timeout: 150_000, intervals: [250] }).toBe(0);
  const seconds = (Date.now() - started) / 1000;
  test.info().annotations.push({ type: 'drain time', description: `20 records in ${seconds.toFixed(1)} s` });
  console.log(`[offline] drained 20 queued records in ${seconds.toFixed(1)} s`);
  expect((await serverRecords(page, technician)).total - before).toBe(20);
});
