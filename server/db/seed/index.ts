/**
 * Demo data for demo mode: the demo sign-ins plus a realistic network of five divisions
 * with curves, stations, machine roll-out figures and two months of inspections with
 * photos. Safe to call on every start: a second call inserts nothing and changes nothing.
 */
import type { BlobStore } from '../../storage/blob-store.js';
import { hashPassword } from '../../security/password.js';
import type { Db } from '../client.js';
import { assertIsoDate } from './calendar.js';
import { buildDemoDataset } from './dataset.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { storeInspectionPhotos } from './photos.js';
import {
  EMPTY_SUMMARY,
  hasCurves,
  insertDataset,
  insertDemoUsers,
  lockSeed,
  missingDemoUsers,
  type SeedSummary,
} from './write.js';

export type { SeedSummary } from './write.js';
export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.js';

export async function seedDemoData(
  db: Db,
  blobs: BlobStore,
  options: { today: string /* YYYY-MM-DD in the railway's time zone */ },
): Promise<SeedSummary> {
  assertIsoDate(options.today);
  const [usersMissing, curvesPresent] = await Promise.all([missingDemoUsers(db), hasCurves(db)]);
  if (usersMissing === 0 && curvesPresent) return { ...EMPTY_SUMMARY };

  // The slow parts (argon2, photo rendering) run before the transaction so it stays short.
  // Blobs are content-addressed: if the transaction then finds nothing to do, the photos
  // already stored are the same bytes and nothing is lost.
  const dataset = curvesPresent ? null : buildDemoDataset(options.today);
  const [passwordHash, photos] = await Promise.all([
    usersMissing > 0 ? hashPassword(DEMO_PASSWORD) : null,
    dataset ? storeInspectionPhotos(blobs, dataset.inspections) : null,
  ]);

  return db.transaction(async (tx) => {
    await lockSeed(tx);
    const summary: SeedSummary = { ...EMPTY_SUMMARY };
    if (passwordHash) summary.users = await insertDemoUsers(tx, passwordHash);
    // Re-checked under the lock: another instance may have seeded while we rendered photos.
    if (dataset && photos && !(await hasCurves(tx))) Object.assign(summary, await insertDataset(tx, dataset, photos));
    return summary;
  });
}
