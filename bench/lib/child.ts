/**
 * A bench helper in a process of its own (a bare baseline server, a baseline worker): forked
 * with tsx and an IPC channel, so it has its own event loop and its own RSS to sample, as the
 * server has. Messages arrive in order through next(); a child that exits fails the wait with
 * what it wrote to stderr.
 */
import { type ChildProcess, fork } from 'node:child_process';

export interface BenchChild<M> {
  pid: number;
  send(message: unknown): void;
  /** The next message from the child (in order); rejects if the child exits first. */
  next(timeoutMs?: number): Promise<M>;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process has gone. */
  stop(): Promise<void>;
}

export function forkChild<M>(file: string, env: Record<string, string | undefined>): BenchChild<M> {
  const child: ChildProcess = fork(file, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${file}`);
  const pid = child.pid;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const queue: M[] = [];
  const waiting: Array<{ resolve: (m: M) => void; reject: (e: Error) => void }> = [];
  let exited: string | null = null;
  child.on('message', (message) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message as M);
    else queue.push(message as M);
  });
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `exited (${signal ?? `code ${String(code)}`})${stderr.trim() ? `: ${stderr.trim().slice(-1500)}` : ''}`;
      for (const waiter of waiting.splice(0)) waiter.reject(new Error(`${file} ${exited}`));
      resolve();
    }),
  );
  return {
    pid,
    send(message) {
      child.send(message as never);
    },
    next(timeoutMs = 600_000) {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (exited) return Promise.reject(new Error(`${file} ${exited}`));
      return new Promise<M>((resolve, reject) => {
        const waiter = {
          resolve: (m: M) => {
            clearTimeout(timer);
            resolve(m);
          },
          reject: (e: Error) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`${file}: no message within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(killer);
    },
  };
}
