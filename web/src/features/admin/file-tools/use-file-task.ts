import { useEffect, useRef, useState } from 'react';
import type { FileTaskKind } from '../../../../../common/schemas/file-tools.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiErrorMessage, errorStatus, isNetworkError } from '../../../lib/api-client.js';
import { fetchFileTask, fetchLatestFileTasks, type FileTaskAnswer, type FinishedFileTask, finishedTask, startFileTask } from './file-tools-api.js';
import { FILE_TOOLS_TEXTS } from './file-tools-texts.js';
import { pause } from '../../../lib/pause.js';

/** How often a running file task is asked about: they take seconds to minutes. */
export const FILE_TASK_POLL_MS = 1000;
/** Failed polls in a row (no network, a server hiccup) borne before the card gives up. */
const POLL_RETRIES = 3;

export interface FileTaskProgress {
  done: number;
  total: number;
}

export type FileTaskRun =
  | { phase: 'idle' }
  | { phase: 'running'; kind: FileTaskKind; progress: FileTaskProgress }
  | { phase: 'done'; result: FinishedFileTask };

const IDLE: FileTaskRun = { phase: 'idle' };

/** A failed poll worth another try: the line dropped or the server hiccuped. */
const isTransient = (error: unknown) => isNetworkError(error) || (errorStatus(error) ?? 0) >= 500;

/** A task that ended 'failed': its own words go to the toast. */
class TaskFailed extends Error {}

/**
 * One photo file tool from the tap to its outcome: start it (200 done or 202 running), poll
 * GET /api/admin/files/tasks/{taskId} while it runs, then the finished task's summary; a
 * failure (refused request, polls that keep failing, a task ending 'failed') gives the
 * kind's destructive toast with the server's reason and the card is usable again. Leaving the
 * view stops the polling (the server carries on); one tool at a time.
 */
export function useFileTask() {
  const [run, setRun] = useState<FileTaskRun>(IDLE);
  const running = useRef<AbortController | null>(null);

  const follow = async (kind: FileTaskKind, signal: AbortSignal, joined?: FileTaskAnswer) => {
    let task: FileTaskAnswer = joined ?? (await startFileTask(kind));
    signal.throwIfAborted();
    let failedPolls = 0;
    while (task.state === 'running') {
      setRun({ phase: 'running', kind, progress: task.progress });
      await pause(FILE_TASK_POLL_MS, signal);
      try {
        task = await fetchFileTask(task.taskId);
        failedPolls = 0;
      } catch (error) {
        failedPolls += 1;
        if (signal.aborted || !isTransient(error) || failedPolls > POLL_RETRIES) throw error;
      }
      signal.throwIfAborted();
    }
    if (task.state === 'failed') throw new TaskFailed(task.error?.trim() || FILE_TOOLS_TEXTS.failedText[kind]);
    setRun({ phase: 'done', result: finishedTask(task) });
  };

  const start = async (kind: FileTaskKind, joined?: FileTaskAnswer) => {
    if (running.current !== null) return;
    const controller = new AbortController();
    running.current = controller;
    setRun({ phase: 'running', kind, progress: joined?.progress ?? { done: 0, total: 0 } });
    try {
      await follow(kind, controller.signal, joined);
    } catch (error) {
      if (controller.signal.aborted) return;
      setRun(IDLE);
      const description = error instanceof TaskFailed ? error.message : apiErrorMessage(error, FILE_TOOLS_TEXTS.failedText[kind]);
      toast({ variant: 'destructive', title: FILE_TOOLS_TEXTS.failedTitle[kind], description });
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  // On opening: a task still running (started before a reload, or by another Admin) is
  // followed; otherwise the newest finished result is shown. A failure here is not worth a
  // toast: the buttons still work.
  useEffect(() => {
    let open = true;
    fetchLatestFileTasks()
      .then((tasks) => {
        if (!open || running.current !== null) return;
        const busy = tasks.find((t) => t.state === 'running');
        if (busy) {
          void start(busy.kind, busy);
          return;
        }
        const newest = tasks.filter((t) => t.state === 'done').sort((a, b) => (b.finishedAt ?? '').localeCompare(a.finishedAt ?? ''))[0];
        if (newest) setRun({ phase: 'done', result: finishedTask(newest) });
      })
      .catch(() => undefined);
    return () => {
      open = false;
      running.current?.abort();
    };
    // Once, on opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return {
    run,
    /** The kind running now, or null. */
    runningKind: run.phase === 'running' ? run.kind : null,
    start: (kind: FileTaskKind) => void start(kind),
  };
}
