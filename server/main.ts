/**
 * Start: read config, open the database, migrate, make the first admin and the demo data
 * when asked, listen, and on SIGTERM/SIGINT drain: say not ready, finish the requests in
 * flight, hand the running jobs back, close the database.
 */
import path from 'node:path';
import { dateInTimeZone } from '../common/rules/dates.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { loggerOptions } from './logging.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './db/seed/demo-accounts.js';
import { seedDemoData } from './db/seed/index.js';
import { countDemoAccounts, markUnmarkedDemoAccounts, nonPlainEmployeeIds } from './db/seed/demo-account-checks.js';
import { createUserService } from './features/users/index.js';
import { makeBackup, startControlSocket } from './features/backups/index.js';
import { countRequestsInFlight, createShutdownState } from './features/health/index.js';
import { openBlobStore } from './storage/open-blob-store.js';
import { keepFilesPrivate } from './private-files.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** The longest a stopping instance waits for its requests in flight before it closes anyway. */
const DRAIN_LIMIT_SECONDS = 10;
/** Then the longest the close itself may take (the last requests, the workers' jobs handed back). */
const CLOSE_LIMIT_SECONDS = 15;

async function main() {
  const config = readConfig();
  await keepFilesPrivate([config.dataDir, config.backupDir]);
  const logger = loggerOptions({ level: config.logLevel, format: config.logFormat, output: process.stdout, colors: process.stdout.isTTY === true });

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const blobs = await openBlobStore(config);

  // A data folder seeded before demo accounts were marked: mark them, whatever the mode.
  await markUnmarkedDemoAccounts(database.db);
  const users = createUserService({ db: database.db, isOwner: () => false });
  if (config.bootstrapAdmin) {
    const outcome = await users.ensureAdmin(config.bootstrapAdmin);
    if (outcome === 'created') console.log(`Created admin ${config.bootstrapAdmin.employeeId} from ADMIN_EMPLOYEE_ID.`);
  }
  if (config.demo) {
    await seedDemoData(database.db, blobs, {
      today: dateInTimeZone(new Date(), config.appTimeZone),
      cofAlertThreshold: config.cofAlertThreshold,
      followUpDueDays: config.followUpDueDays,
    });
  }

  const shutdownState = createShutdownState();
  const app = await buildApp({ config, database, blobs, logger, shutdown: shutdownState });
  const inFlight = countRequestsInFlight(app.server);
  if (!config.demo) {
    const demoAccounts = await countDemoAccounts(database.db);
    if (demoAccounts > 0) {
      app.log.warn({ demoAccounts }, `${demoAccounts} demo accounts are disabled: demo mode is off, so they cannot sign in`);
    }
  }
  const oddIds = await nonPlainEmployeeIds(database.db);
  if (oddIds.length > 0) {
    app.log.warn({ employeeIds: oddIds.slice(0, 20) }, `${oddIds.length} accounts have employee IDs that are not plain (letters, digits, '.', '_', '-') and cannot sign in`);
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Not ready from now on (GET /api/ready answers 503), but still serving: a load balancer
    // that probes takes this instance out while its requests, uploads above all, finish.
    shutdownState.startDraining();
    app.log.info({ signal, requestsInFlight: inFlight.count(), delaySeconds: config.shutdownDelaySeconds }, 'shutting down: not ready; finishing requests');
    // A request that never finishes must not keep the process alive for ever.
    const force = setTimeout(() => process.exit(1), (config.shutdownDelaySeconds + DRAIN_LIMIT_SECONDS + CLOSE_LIMIT_SECONDS) * 1000);
    force.unref();
    try {
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelaySeconds * 1000));
      // Requests that keep coming (a balancer that does not probe) must not hold the close back for ever.
      await Promise.race([inFlight.drained(), new Promise((resolve) => setTimeout(resolve, DRAIN_LIMIT_SECONDS * 1000).unref())]);
      // Refuses new connections, answers what is still in flight, then stops the features'
      // background work: the report workers hand their unfinished jobs back to the queue.
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // The embedded database is this process's alone: `npm run backup` asks it over DATA_DIR/control.sock.
  if (database.kind === 'pglite') {
    const keep = config.backupSchedule?.keep;
    await startControlSocket(config.dataDir, (to, onProgress) =>
      makeBackup({ database, blobs, backupDir: to ?? config.backupDir, trigger: 'manual', ...(keep && (to ?? config.backupDir) === config.backupDir ? { keep } : {}), onProgress }),
    ).catch((error: unknown) => app.log.warn({ err: error }, '`npm run backup` cannot reach this server (no control socket); stop the server to back up'));
  }
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${path.join(config.dataDir, 'pglite')}`;
  const lines = [``, `HKMI field app ready at http://localhost:${config.port}  (database: ${where})`];
  if (config.demo) {
    lines.push(`Demo sign-ins (password "${DEMO_PASSWORD}"):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`  ${account.role.padEnd(10)} ${account.employeeId}`);
  }
  console.log(lines.join('\n') + '\n');
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  if (error instanceof Error && error.stack && process.env.LOG_LEVEL === 'debug') console.error(error.stack);
  process.exit(1);
});
