#!/usr/bin/env node
/**
 * Lighthouse on the built app (run `npm run build` first; this script builds nothing).
 *
 * Starts dist/server/main.js on a free port with a scratch embedded database and demo data
 * (as scripts/e2e-server.mjs does), audits the login page at Lighthouse's mobile form factor
 * in Debian's Chromium, prints the scores of best-practices, performance and accessibility,
 * and exits non-zero when best-practices is below 0.95. Installability is checked by
 * tests/e2e/pwa.spec.ts (Lighthouse 12 has no PWA category).
 *
 *   node scripts/lighthouse.mjs [--path /login] [--min-best-practices 0.95]
 *
 * Reports land in .tmp/lighthouse/ (report.html, report.json). CHROME_PATH picks the browser
 * (default /usr/bin/chromium).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    path: { type: 'string', default: '/login' },
    'min-best-practices': { type: 'string', default: '0.95' },
  },
});
const minBestPractices = Number(args['min-best-practices']);
const CATEGORIES = ['best-practices', 'performance', 'accessibility'];

const serverMain = path.join(root, 'dist', 'server', 'main.js');
if (!existsSync(serverMain) || !existsSync(path.join(root, 'dist', 'web', 'index.html'))) {
  console.error('The app is not built: run `npm run build` first.');
  process.exit(2);
}

/** A port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, server, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000}s`);
}

const outDir = path.join(root, '.tmp', 'lighthouse');
const dataDir = path.join(outDir, 'data');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [serverMain], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO: '1', DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'test' },
});

let chrome;
let exitCode = 1;
try {
  await waitForHealth(`${origin}/api/health`, server);
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    logLevel: 'error',
  });
  const url = `${origin}${args.path}`;
  let result;
  // A run now and then fails to record its trace (NO_NAVSTART); one more try settles it.
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    result = await lighthouse(url, {
      port: chrome.port,
      logLevel: 'error',
      output: ['html', 'json'],
      onlyCategories: CATEGORIES,
      formFactor: 'mobile',
    });
    if (!result) throw new Error('Lighthouse returned no result');
    if (!result.lhr.runtimeError) break;
    console.warn(`attempt ${attempt}: ${result.lhr.runtimeError.code}`);
  }
  const { lhr, report } = result;
  const [html, json] = Array.isArray(report) ? report : [report, ''];
  writeFileSync(path.join(outDir, 'report.html'), html);
  if (json) writeFileSync(path.join(outDir, 'report.json'), json);

  console.log(`Lighthouse ${lhr.lighthouseVersion} on ${url} (${lhr.configSettings.formFactor}, ${lhr.environment.hostUserAgent})`);
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    console.log(`  ${category.title.padEnd(16)} ${category.score === null ? 'n/a' : category.score.toFixed(2)}`);
  }
  // Name whatever cost points, so a regression is easy to find.
  for (const id of CATEGORIES) {
    const failing = lhr.categories[id].auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit.score !== null && audit.score < 1);
    for (const audit of failing) console.log(`    ${id}: ${audit.id} ${audit.score.toFixed(2)} ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
  }
  for (const warning of lhr.runWarnings) console.log(`  warning: ${warning}`);
  console.log(`  report: ${path.relative(root, path.join(outDir, 'report.html'))}`);

  const bestPractices = lhr.categories['best-practices'].score ?? 0;
  if (lhr.runtimeError) {
    console.error(`Lighthouse runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  } else if (bestPractices < minBestPractices) {
    console.error(`best-practices ${bestPractices.toFixed(2)} is below ${minBestPractices}`);
  } else {
    exitCode = 0;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  chrome?.kill();
  server.kill('SIGTERM');
}
process.exit(exitCode);
