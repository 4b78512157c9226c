import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { FIELD_FILES } from '../lingui.config.js';
import { linguiMacros } from './lingui-macros.js';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

const BRAND_BLUE = '#1e3a8a';
// The page background (Tailwind slate-100), so the splash screen flows into the app.
const PAGE_BACKGROUND = '#f1f5f9';

/** The budget (docs/architecture.md, 'Budgets'): the JavaScript a technician's phone loads before the first screen, gzip. */
const INITIAL_JS_BUDGET_BYTES = 150_000;

/**
 * Prints the initial JavaScript (the entry chunk and every chunk it imports statically) as
 * gzip on the wire, and fails the build over the budget, so a change that pulls admin code or
 * a library into the technician's first download is caught where it is made. The budget holds
 * in each language: a Hindi reader's first download adds the Hindi catalogue of the first
 * screens (lib/i18n.ts). It also fails when a module whose texts are in a catalogue that loads
 * later (`field`, `admin`: lingui.config.ts) is in the first download, where it would show keys.
 */
function initialJsBudget(): Plugin {
  const laterTexts = (id: string) =>
    id.includes('/web/src/features/admin/') || FIELD_FILES.some((file) => id.endsWith(`/${file}`));
  return {
    name: 'initial-js-budget',
    apply: 'build',
    writeBundle(_options, bundle) {
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk' || initial.has(fileName)) return;
        initial.add(fileName);
        chunk.imports.forEach(visit);
      };
      for (const output of Object.values(bundle)) if (output.type === 'chunk' && output.isEntry) visit(output.fileName);
      let bytes = 0;
      for (const fileName of initial) {
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk') continue;
        bytes += gzipSync(chunk.code, { level: 9 }).length;
        const misplaced = Object.keys(chunk.modules).filter(laterTexts);
        if (misplaced.length > 0) this.error(`In the first download, but their texts load later: ${misplaced.join(', ')}`);
      }
      const hindiFirstTexts = Object.values(bundle).find(
        (output) => output.type === 'chunk' && Object.keys(output.modules).some((id) => id.endsWith('/locales/hi/app.po')),
      );
      const hindiBytes = hindiFirstTexts?.type === 'chunk' ? gzipSync(hindiFirstTexts.code, { level: 9 }).length : 0;
      const kB = (n: number) => `${(n / 1000).toFixed(2)} kB`;
      const figure = `initial JS ${kB(bytes)} gzip in English, ${kB(bytes + hindiBytes)} in Hindi (budget ${kB(INITIAL_JS_BUDGET_BYTES)}) in ${[...initial].join(', ')}`;
      if (bytes + hindiBytes > INITIAL_JS_BUDGET_BYTES) this.error(`Over the technician route's budget: ${figure}`);
      this.info(figure);
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [
    react(),
    // Lingui's macros (t`…`, <Trans>) become catalogue lookups; .po catalogues compile on import.
    linguiMacros(),
    // A Hindi text missing from the catalogue fails the build instead of showing a key.
    lingui({ failOnMissing: true, failOnCompileError: true }),
    tailwindcss(),
    initialJsBudget(),
    // The app shell is precached so the app opens in dead zones.
    VitePWA({
      strategies: 'generateSW',
      // A new version waits until the technician says so (web/src/features/pwa): an update
      // must never reload a half-filled inspection form.
      registerType: 'prompt',
      // Registration happens in web/src/features/pwa, after the first render; an inline
      // script would also break the CSP (script-src 'self').
      injectRegister: false,
      filename: 'sw.js',
      manifestFilename: 'manifest.webmanifest',
      scope: '/',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'HKMI Field Service',
        short_name: 'HKMI',
        description: 'Railway curve lubrication field service: inspections, CoF measurements and reports',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: BRAND_BLUE,
        background_color: PAGE_BACKGROUND,
        categories: ['business', 'productivity', 'utilities'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The whole shell, lazy screens included, so every screen opens offline.
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        navigateFallback: '/index.html',
        // API answers depend on the signed-in user and must always come from the server
        // (reference data for offline use lives in IndexedDB); /api is never cached here.
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        // The update prompt sends SKIP_WAITING when the user chooses "Update now".
        skipWaiting: false,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    // The server serves dist/web (server/paths.ts WEB_DIST_DIR).
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Everything the first screen needs in one chunk: rolldown otherwise splits the
        // initial code into several chunks, which costs about 2.7 KB gzip more (the
        // technician route's budget is 150 KB: docs/architecture.md, 'Budgets'). Lazy screens keep their chunks.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    // One origin in development too, so the httpOnly session cookie behaves as in production.
    proxy: { '/api': 'http://localhost:5000' },
  },
});
