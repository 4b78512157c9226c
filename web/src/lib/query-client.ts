import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api-client.js';

/**
 * The original app's defaults: no automatic retry, no refetch on focus, no polling, cached data
 * never goes stale (gcTime stays at the 5-minute default). A factory, so every test gets
 * its own cache.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
