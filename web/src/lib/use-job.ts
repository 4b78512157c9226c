import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorStatus, isNetworkError } from './api-client.js';

/** A job the server is making (a report, a file task), as the request that started it answered. */
export interface JobToFollow<T> {
  id: string;
  first: T;
}

export interface JobRules<T> {
  /** What names this kind of job in the query cache (e.g. 'report'). */
  name: string;
  /** How often a job still being made is asked about. */
  pollMs: number;
  /** Asks the server where the job stands now (what the first answer said may fill what a read leaves out). */
  read: (job: JobToFollow<T>, signal: AbortSignal) => Promise<T>;
  isRunning: (answer: T) => boolean;
  /** Failed reads in a row borne before giving up: only a dropped line or a server hiccup (5xx) is borne. */
  retries: number;
}

export interface JobEvents<T> {
  /** Each answer while the job is still being made (the first one too). */
  progress?: (answer: T) => void;
  /** The answer that says the job is over (done or failed): once. */
  finished: (answer: T) => void;
  /** The reads kept failing (or failed for a reason not worth another try): once. */
  unreadable: (error: unknown) => void;
}

/** A failed read worth another try: the line dropped or the server hiccuped. */
const isTransient = (error: unknown) => isNetworkError(error) || (errorStatus(error) ?? 0) >= 500;

/**
 * Follows one server job until it is over, on TanStack Query: its status is read every
 * `pollMs` while it is queued or running (the next read once the last one answered), a
 * dropped read is borne `retries` times in a row, and `events` hear of each step. `job` null
 * follows nothing; a new `job` stops following the old one, and unmounting stops the reads
 * (the one in flight is aborted; the server carries on).
 */
export function useJob<T>(job: JobToFollow<T> | null, rules: JobRules<T>, events: JobEvents<T>): void {
  // Each following of a job has its own cache entry: a job followed again starts from its new first answer.
  const [followed, setFollowed] = useState({ job, count: 0 });
  if (followed.job !== job) setFollowed({ job, count: followed.count + 1 });
  const query = useQuery({
    queryKey: ['job', rules.name, job?.id, followed.count],
    queryFn: ({ signal }) => (job ? rules.read(job, signal) : Promise.reject(new Error('no job to follow'))),
    enabled: job !== null && rules.isRunning(job.first),
    initialData: job?.first,
    // Read only on the poll's beat, never because the view mounted or the window took focus.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
    refetchInterval: (q) => (q.state.status === 'error' || (q.state.data !== undefined && !rules.isRunning(q.state.data)) ? false : rules.pollMs),
    refetchIntervalInBackground: true,
    retry: (failures, error) => failures < rules.retries && isTransient(error),
    retryDelay: rules.pollMs,
  });

  const latestEvents = useRef(events);
  useEffect(() => {
    latestEvents.current = events;
  });
  const heard = useRef<unknown>(undefined);
  const { data, error, status } = query;
  useEffect(() => {
    if (!job) return;
    const step = status === 'error' ? error : data;
    if (step === undefined || heard.current === step) return;
    heard.current = step;
    if (status === 'error') latestEvents.current.unreadable(error);
    else if (rules.isRunning(data as T)) latestEvents.current.progress?.(data as T);
    else latestEvents.current.finished(data as T);
    // The rules are fixed per use; the job, its answers and its failure are what move.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job, data, error, status]);
}
