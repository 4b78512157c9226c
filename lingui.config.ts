import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * The interface's two catalogues per language (docs/glossary.md for the words). English is
 * the source: its texts are the spec's, written in the code with Lingui's macros; `npm run
 * i18n:extract` writes them to the catalogues, where Hindi is translated.
 *
 * Three catalogues per language, so the technician's first download holds only the texts of
 * the screens in it: `field` holds the technician's lazily loaded screens (they load it with
 * their code: lib/i18n.ts `withScreenTexts`), `admin` the admin views, `app` the rest. The build
 * fails when a module of `field` or `admin` ends up in the first download (web/vite.config.ts).
 */
/** The technician's screens that load on demand (React.lazy), as folders or files. */
export const FIELD_SCREENS = [
  'web/src/features/inspection-flow/camera',
  'web/src/features/inspection-flow/entry',
  'web/src/features/inspection-flow/service-details',
  'web/src/features/inspection-flow/review',
  'web/src/features/inspection-flow/data-entry-page.tsx',
  'web/src/features/inspection-flow/service-details-page.tsx',
  'web/src/features/inspection-flow/review-page.tsx',
  'web/src/features/inspection-flow/camera-page.tsx',
  'web/src/features/inspection-flow/success-page.tsx',
  'web/src/features/inspection-flow/flow-parts.tsx',
  'web/src/features/inspection-flow/value-labels.ts',
  'web/src/features/auth/demo-accounts-card.tsx',
  'web/src/features/pwa/update-prompt.tsx',
  'web/src/lib/value-labels.ts',
  // Loaded just after the first screen (problem-text-registry.ts).
  'web/src/lib/problem-texts.ts',
  'web/src/features/machine-dashboard',
  'web/src/features/schedule',
  'web/src/features/auth/change-password-page.tsx',
  'web/src/features/auth/change-password-form.tsx',
  'web/src/features/outbox/outbox-page.tsx',
  'web/src/features/outbox/outbox-waiting-notice.tsx',
];

/** Files inside those folders that the first screens import directly: their texts stay in `app`. */
export const FIRST_SCREEN_PARTS: readonly string[] = [];

const root = import.meta.dirname;

/** The source files of the field catalogue: FIELD_SCREENS' files less FIRST_SCREEN_PARTS and tests. */
export const FIELD_FILES: readonly string[] = FIELD_SCREENS.flatMap((screen) =>
  statSync(path.join(root, screen)).isDirectory()
    ? readdirSync(path.join(root, screen), { recursive: true, encoding: 'utf8' }).map((file) => `${screen}/${file}`)
    : [screen],
).filter((file) => /\.tsx?$/.test(file) && !file.includes('.test.') && !FIRST_SCREEN_PARTS.includes(file));

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'hi'],
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false, origins: true }),
  catalogs: [
    {
      path: '<rootDir>/web/src/locales/{locale}/admin',
      include: ['<rootDir>/web/src/features/admin'],
      exclude: ['**/*.test.*'],
    },
    {
      path: '<rootDir>/web/src/locales/{locale}/field',
      include: FIELD_FILES.map((file) => `<rootDir>/${file}`),
    },
    {
      path: '<rootDir>/web/src/locales/{locale}/app',
      include: ['<rootDir>/web/src'],
      exclude: [
        '**/*.test.*',
        '<rootDir>/web/src/features/admin/**',
        '<rootDir>/web/src/locales/**',
        ...FIELD_FILES.map((file) => `<rootDir>/${file}`),
      ],
    },
  ],
});
