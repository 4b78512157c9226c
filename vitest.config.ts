import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { linguiMacros } from './web/lingui-macros.js';

/**
 * One Vitest run, several projects: shared rules, the API against PGlite (and against
 * PostgreSQL when TEST_DATABASE_URL is set), and web components in jsdom.
 */
const serverProject = (db: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${db}`,
    include: ['server/**/*.test.ts'],
    environment: 'node' as const,
    env: { TEST_DB: db },
    globalSetup: ['server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Two files at a time on the 2-core CI machine: most of a server file's time is waiting (on
    // PostgreSQL, on a child server starting, on sharp's threads), which one worker leaves idle.
    maxWorkers: 2,
    projects: [
      { test: { name: 'common', include: ['common/**/*.test.ts'], environment: 'node' } },
      // The interface catalogues against the code (extracts afresh: docs/architecture.md, 'Texts and languages').
      { test: { name: 'i18n', include: ['tests/i18n/**/*.test.ts'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      {
        // As web/vite.config.ts: Lingui's macros and the .po catalogues.
        plugins: [react(), linguiMacros(), lingui()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/test/setup.ts'],
          // Above the 15 s a screen may take to appear (web/src/test/setup.ts).
          testTimeout: 30_000,
        },
      },
    ],
  },
});
