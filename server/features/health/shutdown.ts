/**
 * A stopping instance drains (server/main.ts): on SIGTERM it first says it is not ready
 * (GET /api/ready answers 503) while it still accepts connections, so a load balancer stops
 * sending it work instead of meeting refused connections; once the requests in flight are
 * answered it closes (new connections refused), and the job workers hand their jobs back.
 */
import type { Server } from 'node:http';

export interface ShutdownState {
  readonly draining: boolean;
  startDraining(): void;
}

export function createShutdownState(): ShutdownState {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
  };
}

export interface RequestsInFlight {
  count(): number;
  /** Resolves once no request is in flight (at once when none is). */
  drained(): Promise<void>;
}

/**
 * Counts the server's requests from their arrival to their response's end (or the client
 * going away): one listener on Node's own 'request' event, in front of Fastify, so an upload
 * still reading its body counts. main.ts waits on it before closing.
 */
export function countRequestsInFlight(server: Server): RequestsInFlight {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const settle = () => {
    inFlight -= 1;
    if (inFlight > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };
  server.prependListener('request', (_request, response) => {
    inFlight += 1;
    response.once('close', settle);
  });
  return {
    count: () => inFlight,
    drained: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
