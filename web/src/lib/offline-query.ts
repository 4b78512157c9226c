/**
 * Queries that work with no network: every answer is parsed by its shared schema and also kept
 * on the device (IndexedDB), and the copy kept last time answers when the network does not.
 * The reference data of the inspection flow and the technician's schedule are read this way.
 */
import type { QueryFunctionContext } from '@tanstack/react-query';
import type { z } from 'zod';
import { errorStatus, getQueryFn, isNetworkError } from './api-client.js';
import { referenceCache } from './reference-cache.js';

// The URL is the first key element: that is what the shared query function GETs.
const fetchJson = getQueryFn({ on401: 'throw' });

/** A gateway answering for a server it cannot reach counts as no network too. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

function isUnreachable(error: unknown): boolean {
  const status = errorStatus(error);
  return isNetworkError(error) || (status !== null && UNREACHABLE_STATUSES.has(status));
}

/**
 * Network first: a fresh answer is parsed, kept on the device and used. With no network, the
 * copy kept last time answers instead; without one (or one the schema no longer accepts), the
 * network's error stands, as before.
 */
export function networkThenDevice<S extends z.ZodType>(schema: S) {
  return async (context: QueryFunctionContext): Promise<z.output<S>> => {
    const url = String(context.queryKey[0]);
    let fresh: unknown;
    try {
      fresh = await fetchJson(context);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const kept = await referenceCache()
        .read(url)
        .catch(() => undefined);
      const parsed = schema.safeParse(kept);
      if (kept === undefined || !parsed.success) throw error;
      return parsed.data;
    }
    const parsed = schema.parse(fresh);
    // Kept in the background: a full or unavailable storage must not fail the screen.
    referenceCache()
      .write(url, fresh)
      .catch(() => undefined);
    return parsed;
  };
}

/*
 * 'always': React Query would otherwise pause these queries while the browser reports
 * offline, and the copy kept on the device would never be asked for.
 */
export const OFFLINE_CAPABLE = { networkMode: 'always' } as const;

export const HOUR_MS = 60 * 60 * 1000;
