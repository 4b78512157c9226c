import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json, found from this file whether run from source or dist/. */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot();
// The folders the server reads at run time besides its compiled code, node_modules and
// package.json: the container image copies each (server/deployment.test.ts checks the Dockerfile).
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'server', 'db', 'migrations');
export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist', 'web');
/** The fonts every PDF embeds (server/pdf/fonts.ts). */
export const FONTS_DIR = path.join(PROJECT_ROOT, 'server', 'pdf', 'fonts');
/** The owner's product documents, served as PDF (features/documents). */
export const DOCS_DIR = path.join(PROJECT_ROOT, 'docs');
