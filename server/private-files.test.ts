/**
 * Private files (issue item 9), on the real server process and `npm run backup`: the data
 * folder, the database, the photos, the backups and the control socket are their owner's
 * alone. The test process's umask is set wide (0o000) and the children inherit it: the
 * processes must set their own, the outcome must not hang on the machine's default.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dateInTimeZone } from '../common/rules/dates.js';
import { controlSocketPath } from './features/backups/control-socket.js';
import { openToOthers, walk } from './test/file-modes.js';
import { makeDistinctPhotos, serviceVisitMetadata, uploadForm } from './test/photos.js';
import { cleanUpServerProcesses, runBackupCli, signIn, startServer, tempDir, until, WAIT_MS } from './test/server-process.js';
import { createPostgresTestDatabase, testDatabaseKind } from './test/test-database.js';

const ADMIN = { employeeId: 'PRIV01', password: 'private files pw' };

let runnerUmask: number;
beforeEach(() => {
  runnerUmask = process.umask(0o000);
});
afterEach(() => {
  process.umask(runnerUmask);
});
afterAll(cleanUpServerProcesses);

async function databaseSettings(dataDir: string): Promise<Record<string, string>> {
  const databaseUrl = testDatabaseKind === 'postgres' ? await createPostgresTestDatabase() : undefined;
  return { DEMO: 'false', DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
}

describe(`files the app makes are its user's alone (${testDatabaseKind})`, () => {
  it('the data folder, database, photos, backups and control socket after a start, an upload and a backup', { timeout: WAIT_MS }, async () => {
    const root = await tempDir('hkmi-private-');
    // Neither exists yet: the server and the backup make them.
    const dataDir = path.join(root, 'data');
    const backupDir = path.join(root, 'backups');
    const settings = await databaseSettings(dataDir);
    const server = await startServer({ ...settings, ADMIN_EMPLOYEE_ID: ADMIN.employeeId, ADMIN_PASSWORD: ADMIN.password });
    if (testDatabaseKind === 'pglite') await until('the control socket', async () => existsSync(controlSocketPath(dataDir)));

    const cookie = await signIn(server, ADMIN);
    const [photo] = await makeDistinctPhotos(1, 640, 480, 57);
    const metadata = serviceVisitMetadata({ date: dateInTimeZone(new Date(Date.now() - 86_400_000), 'Asia/Kolkata') });
    const upload = await fetch(`${server.base}/api/inspections/upload`, { method: 'POST', headers: { cookie }, body: uploadForm(metadata, photo) });
    expect(upload.status, await upload.clone().text()).toBe(201);

    // On the embedded database the running server makes it (over the socket); on PostgreSQL the command does.
    const backup = await runBackupCli(['backup'], { ...settings, BACKUP_DIR: backupDir });
    expect(backup.code, backup.stderr + backup.stdout).toBe(0);

    const kept = [...(await walk(dataDir)), ...(await walk(backupDir))];
    const names = kept.map((entry) => path.relative(root, entry.path));
    // What the rule is about is there to be checked: the photo in the store and in the backup, the backup's files, the database.
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/^data\/blobs\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/)]));
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/^backups\/photos\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/)]));
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/^backups\/backup-[^/]+\/manifest\.json$/), expect.stringMatching(/^backups\/backup-[^/]+\/database\/users\.ndjson\.gz$/)]));
    if (testDatabaseKind === 'pglite') {
      expect(kept.filter((entry) => entry.path.startsWith(path.join(dataDir, 'pglite'))).length).toBeGreaterThan(100);
      expect(kept.find((entry) => entry.path === controlSocketPath(dataDir))?.kind).toBe('socket');
    }
    expect([...(await openToOthers(dataDir)), ...(await openToOthers(backupDir))]).toEqual([]);
  });

  it('tightens a data folder and a backup folder an older version left open to others', { timeout: WAIT_MS }, async () => {
    const root = await tempDir('hkmi-private-');
    const dataDir = path.join(root, 'data');
    const backupDir = path.join(root, 'backups');
    for (const dir of [dataDir, backupDir]) {
      await mkdir(dir);
      await chmod(dir, 0o755);
    }
    const settings = await databaseSettings(dataDir);
    await startServer({ ...settings, BACKUP_DIR: backupDir });
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(backupDir)).mode & 0o777).toString(8)).toBe('700');
  });
});
