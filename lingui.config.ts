import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * The interface's two catalogues per language (docs/glossary.md for the words). English is
 * the source: its texts are the spec's, written in the code with Lingui's macros; `npm run
 * i18n:extract` writes them to the catalogues, where Hindi is translated.
 *
 * Two catalogues, so the technician's first download holds only the texts it can show: the
 * admin views' texts load with the admin views.
 */
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
      path: '<rootDir>/web/src/locales/{locale}/app',
      include: ['<rootDir>/web/src'],
      exclude: ['**/*.test.*', '<rootDir>/web/src/features/admin/**', '<rootDir>/web/src/locales/**'],
    },
  ],
});
