/**
 * Makes an Admin account on the configured database (DATABASE_URL, or PGlite under DATA_DIR).
 * Usage: npm run create-admin -- <employeeId> <password> ["Full Name"]
 * An existing employee ID is left untouched.
 */
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/client.js';
import { createUserService } from '../server/features/users/index.js';
import { keepFilesPrivate } from '../server/private-files.js';

const [employeeId, password, name] = process.argv.slice(2);
if (!employeeId || !password) {
  console.error('Usage: npm run create-admin -- <employeeId> <password> ["Full Name"]');
  process.exit(2);
}
if (password.length < 8) {
  console.error('The password must be at least 8 characters.');
  process.exit(2);
}

const config = loadConfig();
await keepFilesPrivate([config.dataDir]);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  const users = createUserService({ db: database.db, isOwner: () => false });
  const outcome = await users.ensureAdmin({ employeeId, password, name });
  console.log(outcome === 'created' ? `Admin ${employeeId} created.` : `${employeeId} already exists; nothing changed.`);
} finally {
  await database.close();
}
