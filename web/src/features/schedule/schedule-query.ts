/**
 * Its own module so that its schema loads with the screens that use it (the entry form, the
 * due list, the background copy), not with the technician's first page.
 */
import { queryOptions } from '@tanstack/react-query';
import { CURVE_LIST_LIMIT } from '../../../../common/constants.js';
import { scheduleResponseSchema } from '../../../../common/schemas/schedule.js';
import { HOUR_MS, networkThenDevice, OFFLINE_CAPABLE } from '../../lib/offline-query.js';

/**
 * The maintenance schedule of the technician's curves (GET /api/schedule): each curve's last
 * Service and CoF visit. Kept on the device like the curves, so the due states can be worked
 * out offline for whatever day it is (curve-schedule.ts applies the shared rule to it).
 */
export function scheduleUrl(division: string | null | undefined): string {
  const scope = division ? `&division=${encodeURIComponent(division)}` : '';
  return `/api/schedule?limit=${CURVE_LIST_LIMIT}${scope}`;
}

export function scheduleQuery(division: string | null | undefined) {
  return queryOptions({
    queryKey: [scheduleUrl(division)],
    queryFn: networkThenDevice(scheduleResponseSchema),
    ...OFFLINE_CAPABLE,
    // Visits by colleagues change it during the day; the phone's own visits are merged at once.
    staleTime: 5 * 60 * 1000,
    gcTime: 2 * HOUR_MS,
  });
}
