import { I18nProvider } from '@lingui/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../features/auth/index.js';
import { ReferenceWarmer } from '../features/inspection-flow/index.js';
import { OutboxSync } from '../features/outbox/index.js';
import { i18n } from '../lib/i18n.js';

/**
 * Everything a screen expects around it, except the router (tests bring a memory router).
 * The outbox and the reference-data copy run inside the auth provider: both follow the
 * signed-in user. Tests switch the copy off, since it makes requests of its own.
 */
export function AppProviders({
  queryClient,
  warmReferenceData = true,
  children,
}: {
  queryClient: QueryClient;
  warmReferenceData?: boolean;
  children: ReactNode;
}) {
  return (
    // Every text re-renders in the new language when the switch changes it (lib/i18n.ts).
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          {children}
          <OutboxSync />
          <ReferenceWarmer enabled={warmReferenceData} />
        </AuthProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}
