import { render, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders } from '../app/providers.js';
import { AppRoutes } from '../app/routes.js';
import { createQueryClient } from '../lib/query-client.js';

/** Shows the current path so tests can assert where a guard sent the user. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/**
 * The whole app at `path`, as a browser would start it, with a fresh cache. The background
 * copy of reference data is off unless asked for: it makes requests of its own.
 */
export function renderApp(path: string, { warmReferenceData = false }: { warmReferenceData?: boolean } = {}) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={createQueryClient()} warmReferenceData={warmReferenceData}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

/**
 * renderApp, then waits until the screen has loaded: the flow's screens load after the first
 * screen (with their texts), behind the route's "Loading..." fallback.
 */
export async function renderScreen(path: string, options: { warmReferenceData?: boolean } = {}) {
  const rendered = renderApp(path, options);
  await waitFor(() => expect(document.querySelector('[role="status"][data-loading-screen]')).toBeNull());
  return rendered;
}
