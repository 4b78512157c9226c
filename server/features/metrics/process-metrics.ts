/**
 * prom-client's default metrics (CPU, memory, heap, event loop lag, GC, handles, open files):
 * figures of the process, the same for every app a process builds, and each collection sets
 * up its own event-loop monitor and GC observer that are never taken down. So one registry
 * per process, made when the first app with metrics asks for it, and never prom-client's
 * global registry (which any library could write into).
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
