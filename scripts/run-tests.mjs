#!/usr/bin/env node
/**
 * `npm test`: type check, lint, unit and API tests (Vitest: PGlite, plus PostgreSQL when
 * TEST_DATABASE_URL is set), then end-to-end tests in Chromium (Playwright). Every stage
 * runs even when an earlier one fails, so one run shows everything that is wrong. Ends with
 * the line `N passed, N failed` that CI reads.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const vitestJson = path.join(tmp, 'vitest-results.json');
const playwrightJson = path.join(tmp, 'playwright-results.json');

const onlyUnit = process.argv.includes('--unit');
const stages = [
  { name: 'typecheck (server, common, tests)', cmd: ['npx', 'tsc', '-p', 'tsconfig.json'] },
  { name: 'typecheck (web)', cmd: ['npx', 'tsc', '-p', 'tsconfig.web.json'] },
  { name: 'lint', cmd: ['npx', 'eslint', '.', '--max-warnings', '0'] },
  {
    name: 'unit and API tests (vitest)',
    cmd: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    results: vitestJson,
  },
  ...(onlyUnit
    ? []
    : [
        {
          name: 'end-to-end tests (playwright, chromium)',
          cmd: ['npx', 'playwright', 'test'],
          env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
          results: playwrightJson,
        },
        // Uses the build the end-to-end stage made; fails below best-practices 0.95.
        { name: 'lighthouse (login page, mobile)', cmd: ['node', 'scripts/lighthouse.mjs'] },
      ]),
];

let passed = 0;
let failed = 0;
let skipped = 0;
const failedStages = [];
const failedTests = [];

for (const stage of stages) {
  console.log(`\n=== ${stage.name} ===`);
  if (stage.results) rmSync(stage.results, { force: true });
  const started = Date.now();
  const run = spawnSync(stage.cmd[0], stage.cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...stage.env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    failedStages.push(stage.name);
    // A failed type check or lint counts as one failure in the closing line.
    if (!stage.results) failed += 1;
  }
  console.log(`--- ${stage.name}: ${run.status === 0 ? 'ok' : 'FAILED'} in ${seconds}s`);

  if (stage.results) {
    failedTests.push(...failedTestNames(stage.results));
    const counts = readCounts(stage.results);
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
      skipped += counts.skipped;
    } else if (run.status !== 0) {
      // The runner died before reporting: count the stage itself as one failure.
      failed += 1;
    }
  }
}

/** The names of the failed tests, so the closing lines (all CI keeps) say which ones failed. */
function failedTestNames(file) {
  if (!existsSync(file)) return [];
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const names = [];
  if (Array.isArray(data.testResults)) {
    for (const fileResult of data.testResults) {
      const relative = path.relative(root, fileResult.name ?? '');
      for (const test of fileResult.assertionResults ?? []) {
        if (test.status === 'failed') names.push(`${relative} > ${test.fullName ?? test.title}`);
      }
      // A file that failed to load has no tests to name; name the file.
      if (fileResult.status === 'failed' && !(fileResult.assertionResults ?? []).some((t) => t.status === 'failed')) {
        names.push(`${relative} (${String(fileResult.message ?? 'failed').split('\n')[0].slice(0, 200)})`);
      }
    }
  }
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected') names.push(`${spec.file} > ${[...trail, spec.title].join(' > ')} [${test.projectName}]`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of data.suites ?? []) walk(suite, []);
  return names;
}

function readCounts(file) {
  if (!existsSync(file)) return null;
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in data) {
    return { passed: data.numPassedTests, failed: data.numFailedTests, skipped: data.numPendingTests + (data.numTodoTests ?? 0) };
  }
  if (data.stats) {
    return { passed: data.stats.expected + data.stats.flaky, failed: data.stats.unexpected, skipped: data.stats.skipped };
  }
  return null;
}

console.log('');
if (failedTests.length > 0) console.log(`Failed tests:\n${failedTests.map((name) => `  ${name}`).join('\n')}`);
if (failedStages.length > 0) console.log(`Failed stages: ${failedStages.join('; ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedStages.length > 0 || failed > 0 ? 1 : 0);
