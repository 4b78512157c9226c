import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { dateInTimeZone } from '../../../../common/rules/dates.js';
import { useSignedInUser } from '../auth/index.js';
import { openActionsQuery } from './open-actions.js';
import { scheduleQuery } from './schedule-query.js';
import { useWaitingVisits } from '../outbox/index.js';
import { buildCurveSchedules, type CurveSchedule } from './curve-schedule.js';

/**
 * The due state of every curve the phone knows, for today, counting the visits still in its
 * outbox. Undefined until the schedule (from the network or the copy on the phone) is there.
 */
export function useCurveSchedules() {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const options = scheduleQuery(user.divisionAccess);
  const query = useQuery(options);
  const waiting = useWaitingVisits();

  // A record leaving the outbox is on the server now: fetch the schedule that includes it.
  const waitingCount = waiting.length;
  const previousCount = useRef(waitingCount);
  const scheduleKey = options.queryKey;
  const actionsKey = openActionsQuery(user.divisionAccess).queryKey;
  useEffect(() => {
    if (waitingCount < previousCount.current) {
      void queryClient.invalidateQueries({ queryKey: scheduleKey });
      // The visit sent may have closed an action, or opened one.
      void queryClient.invalidateQueries({ queryKey: actionsKey });
    }
    previousCount.current = waitingCount;
  }, [waitingCount, queryClient, scheduleKey, actionsKey]);

  const today = query.data ? dateInTimeZone(new Date(), query.data.timeZone) : null;
  const schedules = useMemo<Map<string, CurveSchedule> | undefined>(
    () => (query.data && today ? buildCurveSchedules(query.data, waiting, today) : undefined),
    [query.data, waiting, today],
  );
  return {
    schedules,
    recentSections: query.data?.recentSections ?? [],
    isPending: query.isPending,
    isError: query.isError,
    today,
    cofAlertThreshold: query.data?.cofAlertThreshold ?? null,
    waiting,
  };
}
