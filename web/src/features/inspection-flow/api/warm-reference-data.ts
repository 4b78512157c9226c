import type { QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { isNetworkError } from '../../../lib/api-client.js';
import { readItem, writeItem } from '../../../lib/safe-storage.js';
import { REFERENCE_WARMED_AT_KEY } from '../../../lib/storage-keys.js';
import { curvesQuery, partCategoriesQuery, partsQuery, stationsQuery } from './reference-data.js';
import { openActionsQuery, scheduleQuery } from '../../schedule/index.js';

// A full copy at app start at most this often; a new sign-in always makes one.
const REWARM_AFTER_MS = 60 * 60 * 1000;

export function warmedRecently(now: number): boolean {
  const at = Number(readItem('local', REFERENCE_WARMED_AT_KEY));
  return Number.isFinite(at) && at > 0 && now - at < REWARM_AFTER_MS;
}

/**
 * Copies the reference data the entry flow needs onto the device while there is network, so
 * the whole flow (HKM quick select included) works later at a curve with none: the curve
 * list, its maintenance schedule, the part categories and their parts, then the stations of
 * every section of the technician's curves. One request at a time, in the background; the
 * query functions keep each answer (reference-data.ts). The curve list revalidates with its
 * ETag, so this is cheap when nothing changed.
 */
export async function warmReferenceData(queryClient: QueryClient, user: Pick<PublicUser, 'divisionAccess'>, signal: AbortSignal): Promise<void> {
  // A failure of one answer (a 404 for one category ...) does not stop the rest; losing the
  // network does.
  let complete = true;
  const step = async (run: () => Promise<unknown>): Promise<boolean> => {
    if (signal.aborted) return false;
    try {
      await run();
      return true;
    } catch (error) {
      complete = false;
      if (isNetworkError(error)) throw error;
      return false;
    }
  };

  try {
    let sections: string[] = [];
    await step(async () => {
      const { curves } = await queryClient.fetchQuery(curvesQuery);
      const usable = user.divisionAccess ? curves.filter((c) => c.divisionRailway === user.divisionAccess) : curves;
      sections = [...new Set(usable.map((c) => c.section))].sort();
    });
    // The due states of those curves, for the due list and the curve pickers with no signal.
    await step(() => queryClient.fetchQuery(scheduleQuery(user.divisionAccess)));
    // The faults waiting for a fix, which head the due list.
    await step(() => queryClient.fetchQuery(openActionsQuery(user.divisionAccess)));
    let categories: string[] = [];
    await step(async () => {
      categories = (await queryClient.fetchQuery(partCategoriesQuery)).categories;
    });
    for (const category of categories) await step(() => queryClient.fetchQuery(partsQuery(category)));
    for (const section of sections) await step(() => queryClient.fetchQuery(stationsQuery(section)));
  } catch {
    // The network went away: what was copied so far stays; the next start tries again.
    return;
  }
  if (complete && !signal.aborted) writeItem('local', REFERENCE_WARMED_AT_KEY, String(Date.now()));
}
