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

export type ChildMessage<Ready> = ({ type: 'ready' } & Ready) | { type: 'failed'; message: string };

/** Forks a helper (sent `first()` once forked) and waits for its 'ready'; stopped again when it does not get there. */
export async function forkReady<Ready, M = never>(what: string, file: string, env: Record<string, string | undefined>, timeoutMs: number, first?: () => Promise<unknown>) {
  const child = forkChild<ChildMessage<Ready> | M>(file, env);
  try {
    if (first) child.send(await first());
    const message = (await child.next(timeoutMs)) as ChildMessage<Ready>;
    if (message.type !== 'ready') throw new Error(`${what} did not start: ${message.message}`);
    return { child, ready: message };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** In the helper: `start`, then 'ready' to the parent and its `stop` (once) on SIGTERM or when the parent goes; or 'failed'. */
export function serveAsChild<Ready>(start: () => Promise<{ ready: Ready; stop: () => Promise<unknown> }>): void {
  start().then(
    ({ ready, stop }) => {
      // Once, though both a SIGTERM and the disconnect may come.
      let stopping: Promise<unknown> | null = null;
      const once = () => {
        stopping ??= stop().catch(() => undefined).finally(() => process.exit(0));
      };
      process.once('SIGTERM', once);
      process.once('disconnect', once);
      process.send?.({ type: 'ready', ...ready } satisfies ChildMessage<Ready>);
    },
    (error: unknown) => {
      process.send?.({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ChildMessage<Ready>);
      process.exit(1);
    },
  );
}
