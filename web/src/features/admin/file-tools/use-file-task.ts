import { useEffect, useRef, useState } from 'react';
import type { FileTaskKind } from '../../../../../common/schemas/file-tools.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiErrorMessage } from '../../../lib/api-client.js';
import { type JobRules, type JobToFollow, useJob } from '../../../lib/use-job.js';
import { fetchFileTask, fetchLatestFileTasks, type FileTaskAnswer, type FinishedFileTask, finishedTask, startFileTask } from './file-tools-api.js';
import { failedText, failedTitle } from './file-tools-texts.js';

/** How often a running file task is asked about: they take seconds to minutes. */
export const FILE_TASK_POLL_MS = 1000;

export interface FileTaskProgress {
  done: number;
  total: number;
}

export type FileTaskRun =
  | { phase: 'idle' }
  | { phase: 'running'; kind: FileTaskKind; progress: FileTaskProgress }
  | { phase: 'done'; result: FinishedFileTask };

const IDLE: FileTaskRun = { phase: 'idle' };

const FILE_TASK_RULES: JobRules<FileTaskAnswer> = {
  name: 'file-task',
  pollMs: FILE_TASK_POLL_MS,
  // apiRequest takes no signal: a read in flight when the card goes is answered and dropped.
  read: (task) => fetchFileTask(task.id),
  isRunning: (task) => task.state === 'running',
  retries: 3,
};

/**
 * One photo file tool from the tap to its outcome: start it (200 done or 202 running), follow
 * GET /api/admin/files/tasks/{taskId} while it runs (useJob), then the finished task's
 * summary; a failure (refused request, polls that keep failing, a task ending 'failed') gives
 * the kind's destructive toast with the server's reason and the card is usable again. Leaving
 * the view stops the polling (the server carries on); one tool at a time.
 */
export function useFileTask() {
  const [run, setRun] = useState<FileTaskRun>(IDLE);
  const [followed, setFollowed] = useState<JobToFollow<FileTaskAnswer> | null>(null);
  /** A tool is starting or being followed: the others wait. */
  const busy = useRef(false);
  const open = useRef(true);

  const fail = (kind: FileTaskKind, description: string) => {
    busy.current = false;
    setFollowed(null);
    setRun(IDLE);
    toast({ variant: 'destructive', title: failedTitle(kind), description });
  };

  const finish = (task: FileTaskAnswer) => {
    if (task.state === 'failed') {
      fail(task.kind, task.error?.trim() || failedText(task.kind));
      return;
    }
    let result: FinishedFileTask;
    try {
      result = finishedTask(task);
    } catch (error) {
      fail(task.kind, apiErrorMessage(error, failedText(task.kind)));
      return;
    }
    busy.current = false;
    setFollowed(null);
    setRun({ phase: 'done', result });
  };

  useJob(followed, FILE_TASK_RULES, {
    progress: (task) => setRun({ phase: 'running', kind: task.kind, progress: task.progress }),
    finished: finish,
    unreadable: (error) => followed && fail(followed.first.kind, apiErrorMessage(error, failedText(followed.first.kind))),
  });

  /** Follows `task` (just started, or found running on opening) to its end. */
  const follow = (task: FileTaskAnswer) => {
    busy.current = true;
    setRun({ phase: 'running', kind: task.kind, progress: task.progress });
    setFollowed({ id: task.taskId, first: task });
  };

  const start = async (kind: FileTaskKind) => {
    if (busy.current) return;
    busy.current = true;
    setRun({ phase: 'running', kind, progress: { done: 0, total: 0 } });
    let task: FileTaskAnswer;
    try {
      task = await startFileTask(kind);
    } catch (error) {
      if (open.current) fail(kind, apiErrorMessage(error, failedText(kind)));
      return;
    }
    if (open.current) follow(task);
  };

  // On opening: a task still running (started before a reload, or by another Admin) is
  // followed; otherwise the newest finished result is shown. A failure here is not worth a
  // toast: the buttons still work.
  useEffect(() => {
    open.current = true;
    fetchLatestFileTasks()
      .then((tasks) => {
        if (!open.current || busy.current) return;
        const running = tasks.find((t) => t.state === 'running');
        if (running) {
          follow(running);
          return;
        }
        const newest = tasks.filter((t) => t.state === 'done').sort((a, b) => (b.finishedAt ?? '').localeCompare(a.finishedAt ?? ''))[0];
        if (newest) setRun({ phase: 'done', result: finishedTask(newest) });
      })
      .catch(() => undefined);
    return () => {
      open.current = false;
    };
    // Once, on opening.
  }, []);

  return {
    run,
    /** The kind running now, or null. */
    runningKind: run.phase === 'running' ? run.kind : null,
    start: (kind: FileTaskKind) => void start(kind),
  };
}
