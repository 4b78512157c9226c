/**
 * Demo data for demo mode: the demo sign-ins plus a realistic network of five divisions
 * with curves, stations, machine roll-out figures and two months of inspections with
 * photos. Safe to call on every start: a second call inserts nothing and changes nothing.
 */
import { asc, gt } from 'drizzle-orm';
import { DEFAULT_ACTION_DUE_DAYS, type ActionDueDays } from '../../../common/rules/follow-up-actions.js';
import { DEFAULT_COF_ALERT_THRESHOLD } from '../../../common/rules/schedule.js';
import { createActionService } from '../../features/actions/index.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { hashPassword } from '../../security/password.js';
import type { Db, DbOrTx } from '../client.js';
import { inspectionLogs } from '../schema.js';
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
  options: {
    today: string /* YYYY-MM-DD in the railway's time zone */;
    /** The rule's settings the follow-up actions are filed by (the defaults unless configured). */
    cofAlertThreshold?: number;
    followUpDueDays?: ActionDueDays;
  },
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
    if (dataset && photos && !(await hasCurves(tx))) {
      Object.assign(summary, await insertDataset(tx, dataset, photos));
      await fileFollowUpActions(db, options, tx);
    }
    return summary;
  });
}

/**
 * The follow-up actions the visits would have opened and closed had they been uploaded one by
 * one: each visit, in the order of visits, through the same rule as an upload. `afterId`: only the
 * visits stored after that row (the scale seed's, added beside visits whose actions are filed).
 * `perTransaction`: visits filed per transaction of their own (without `tx`): each filing moves
 * the actions' change counter, and 100k moves of one row in one transaction slow every next one.
 */
export async function fileFollowUpActions(
  db: Db,
  options: { today: string; cofAlertThreshold?: number; followUpDueDays?: ActionDueDays; afterId?: number; perTransaction?: number },
  tx?: DbOrTx,
): Promise<void> {
  const actions = createActionService({
    db,
    appTimeZone: 'UTC',
    cofAlertThreshold: options.cofAlertThreshold ?? DEFAULT_COF_ALERT_THRESHOLD,
    dueDays: options.followUpDueDays ?? DEFAULT_ACTION_DUE_DAYS,
    now: () => new Date(`${options.today}T12:00:00Z`),
  });
  const visits = await (tx ?? db)
    .select()
    .from(inspectionLogs)
    .where(gt(inspectionLogs.id, options.afterId ?? 0))
    .orderBy(asc(inspectionLogs.date), asc(inspectionLogs.submittedAt), asc(inspectionLogs.id));
  const file = async (into: DbOrTx, batch: typeof visits) => {
    for (const visit of batch) await actions.visitStored(into, visit);
  };
  if (tx) return file(tx, visits);
  const size = options.perTransaction ?? visits.length;
  for (let i = 0; i < visits.length; i += size) await db.transaction((own) => file(own, visits.slice(i, i + size)));
}
