import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import pluginLingui from 'eslint-plugin-lingui';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const at = (...parts) => path.join(root, ...parts);
const foldersIn = (...parts) =>
  readdirSync(at(...parts), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(...parts, entry.name));

/**
 * Feature folders: each is reached from outside only through its index.ts (its public face).
 * On the web the admin area is a feature (its own files) holding one feature per view folder,
 * each with its own index.ts, as bulletproof-react's nested features.
 */
const SERVER_FEATURES = foldersIn('server/features');
const WEB_FEATURES = foldersIn('web/src/features').filter((folder) => path.basename(folder) !== 'admin');
const WEB_ADMIN_VIEWS = foldersIn('web/src/features/admin');
const PUBLIC_FACES = [at('server/features/*/index.ts'), at('web/src/features/*/index.ts'), at('web/src/features/admin/*/index.ts')];
const REACH_MESSAGE = "Another feature is reached only through its index.ts (its public face); move what both need there, or to a shared module.";

/** A feature may import its own files, and other features' index.ts only. */
const featureZone = (ownFiles, allFeatures) => ({
  target: at(ownFiles),
  from: at(allFeatures),
  except: [at(ownFiles), ...PUBLIC_FACES],
  message: REACH_MESSAGE,
});

const boundaryZones = [
  ...SERVER_FEATURES.map((folder) => featureZone(`${folder}/**`, 'server/features/**')),
  ...WEB_FEATURES.map((folder) => featureZone(`${folder}/**`, 'web/src/features/**')),
  ...WEB_ADMIN_VIEWS.map((folder) => featureZone(`${folder}/**`, 'web/src/features/**')),
  // The admin area's own files (its page, its view table) sit beside its view folders.
  featureZone('web/src/features/admin/*', 'web/src/features/**'),
  // Code outside the features (app.ts, plugins, shared modules, the web's app/lib/components)
  // sees the features' public faces only. Test helpers and the bench build fixtures from inside.
  {
    target: [at('server/*'), at('server/!(features|test)/**'), at('scripts/**'), at('web/src/*'), at('web/src/!(features|test)/**')],
    from: [at('server/features/**'), at('web/src/features/**')],
    except: PUBLIC_FACES,
    message: REACH_MESSAGE,
  },
  {
    // Shared code runs in the browser and on the server alike.
    target: at('common/**'),
    from: [at('server/**'), at('web/**')],
    message: 'common/ imports nothing from server/ or web/.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'server/db/migrations/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Feature boundaries and import cycles, as bulletproof-react holds them.
    files: ['server/**/*.ts', 'web/src/**/*.{ts,tsx}', 'common/**/*.ts', 'scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The import graph is read from our TypeScript files (import-x reads .js only unless told).
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: [at('tsconfig.json'), at('tsconfig.web.json')], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      // Packages cannot close a cycle through our files, so their graphs are not walked.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['server/**/*.ts', 'web/src/**/*.{ts,tsx}', 'common/**/*.ts', 'scripts/**/*.ts'],
    // A test may set up its case with another feature's fixtures or store: nothing imports a
    // test, so it ties no feature to another.
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Every interface text is in the catalogue (docs/architecture.md, 'Languages'): a text a
    // person reads, written in the web app outside Lingui's t`…`, msg`…` or <Trans>, fails here.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'web/src/test/**'],
    plugins: { lingui: pluginLingui },
    rules: {
      ...pluginLingui.configs['flat/recommended'].rules,
      'lingui/no-unlocalized-strings': [
        'error',
        {
          ignore: [
            // A single token that does not start with a capital: keys, paths, CSS, MIME types, ids.
            '^(?![A-Z])\\S+$',
            // Codes and constants: 'VALIDATION_FAILED', 'RTM/WR', 'CoF' alone.
            '^[A-Z0-9_/.:-]+$',
            // URLs and API paths with spaces never occur; query strings and dates do.
            '^[/?#]',
          ],
          ignoreNames: [
            { regex: { pattern: 'className|classes|Class$', flags: 'i' } },
            { regex: { pattern: '^[A-Z0-9_]+$' } },
            { regex: { pattern: 'Key$|^key$|Path$|^path$|^href$|^to$|^id$|Id$|^name$|^type$|^mode$|^role$|^variant$|^size$|^method$|^accept$|^autoComplete$|^inputMode$|^pattern$|^lang$|^dir$|^rel$|^target$|^method$|^encType$|^testId$|^data-' } },
          ],
          ignoreFunctions: [
            'cn',
            'buttonClasses',
            'Error',
            'TypeError',
            'console.*',
            '*.addEventListener',
            '*.removeEventListener',
            '*.getItem',
            '*.setItem',
            '*.removeItem',
            '*.includes',
            '*.startsWith',
            '*.endsWith',
            '*.split',
            '*.join',
            '*.querySelector',
            '*.querySelectorAll',
            '*.set',
            '*.get',
            '*.append',
            '*.has',
            'apiRequest',
            'fetch',
            'readItem',
            'writeItem',
            'URLSearchParams',
            'new URL',
            'matchMedia',
            'document.createElement',
          ],
          useTsTypes: false,
        },
      ],
    },
  },
  {
    // Shared code must run in the browser and on the server alike.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'fastify*', 'drizzle-orm*', 'react*', '@fastify/*', 'pg', '@electric-sql/*'] },
      ],
    },
  },
);
