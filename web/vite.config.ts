import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

const BRAND_BLUE = '#1e3a8a';
// The page background (Tailwind slate-100), so the splash screen flows into the app.
const PAGE_BACKGROUND = '#f1f5f9';

export default defineConfig({
  root: webRoot,
  plugins: [
    react(),
    tailwindcss(),
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
        // budget of 150 KB for the technician route: docs/architecture.md, 'Budgets'). Lazy screens keep their chunks.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    // One origin in development too, so the httpOnly session cookie behaves as in production.
    proxy: { '/api': 'http://localhost:5000' },
  },
});
