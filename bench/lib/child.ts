/** A bench helper forked with tsx and an IPC channel: its own event loop and RSS, as the server has. */
import { fork } from 'node:child_process';
import { on } from 'node:events';

export interface BenchChild<M> {
  pid: number;
  send(message: unknown): void;
  next(timeoutMs?: number): Promise<M>;
  stop(): Promise<void>;
}

export function forkChild<M>(file: string, env: Record<string, string | undefined>): BenchChild<M> {
  const child = fork(file, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  if (child.pid === undefined) throw new Error(`could not start ${file}`);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exit = new AbortController();
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit.abort(new Error(`${file} exited (${signal ?? `code ${String(code)}`})${stderr.trim() ? `: ${stderr.trim().slice(-1500)}` : ''}`));
      resolve();
    }),
  );
  const messages = on(child, 'message', { signal: exit.signal });
  return {
    pid: child.pid,
    send: (message) => child.send(message as never),
    async next(timeoutMs = 600_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${file}: no message within ${timeoutMs / 1000} s`)), timeoutMs);
      });
      try {
        const result = await Promise.race([messages.next(), late]);
        if (result.done) throw exit.signal.reason;
        return (result.value as unknown[])[0] as M;
      } catch (error) {
        throw exit.signal.aborted ? exit.signal.reason : error;
      } finally {
        clearTimeout(timer);
      }
    },
    async stop() {
      if (exit.signal.aborted) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(killer);
    },
  };
}
