// First: configures zod before any schema is built (see the file).
import './zod-csp.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/providers.js';
import { AppRoutes } from './app/routes.js';
import { startLanguage } from './lib/i18n.js';
import { loadProblemTexts } from './lib/problem-text-registry.js';
import { createQueryClient } from './lib/query-client.js';
import './styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

// The device's language is ready before the first screen (Hindi loads from the precache offline).
void startLanguage().then(() =>
  createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <AppProviders queryClient={createQueryClient()}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  </StrictMode>,
),
);

// Errors in the reader's language: just after the first screen, outside the first download.
void loadProblemTexts();
