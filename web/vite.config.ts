import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: webRoot,
  plugins: [react(), tailwindcss()],
  build: {
    // The server serves dist/web (server/paths.ts WEB_DIST_DIR).
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    // One origin in development too, so the httpOnly session cookie behaves as in production.
    proxy: { '/api': 'http://localhost:5000' },
  },
});
