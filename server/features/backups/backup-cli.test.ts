/**
 * `npm run backup` and `npm run restore` as an operator runs them (issue 14): a backup taken
 * from the command line while the real server serves uploads (on the embedded database the
 * command asks the server over DATA_DIR/control.sock; on PostgreSQL it connects itself), then
 * restored into an empty DATA_DIR or database, where a new server serves every record and photo.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { makeDistinctPhotos, serviceVisitMetadata, sha256, uploadForm } from '../../test/photos.js';
import { cleanUpServerProcesses, runBackupCli, type ServerProcess, signIn, startServer, tempDir, WAIT_MS } from '../../test/server-process.js';
import { createEmptyPostgresTestDatabase, createPostgresTestDatabase, testDatabaseKind } from '../../test/test-database.js';
import { manifestSchema } from './backup-folder.js';

const ADMIN = { employeeId: 'BACK01', password: 'backup admin pw' };

afterAll(cleanUpServerProcesses);

async function uploadOne(server: ServerProcess, cookie: string, n: number, photo: Buffer): Promise<string> {
  const metadata = serviceVisitMetadata({ date: dateInTimeZone(new Date(Date.now() - 2 * 86_400_000), 'Asia/Kolkata'), curveNumber: String(n) });

  const response = await fetch(`${server.base}/api/inspections/upload`, { method: 'POST', headers: { cookie }, body: uploadForm(metadata, photo) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { recordId: string }).recordId;
}

describe(`npm run backup and npm run restore (${testDatabaseKind})`, () => {
  // Two server starts, a backup and a restore: well past the default 30 s on a busy 2-core machine.
  it('backs up while the server takes uploads, and restores into an empty target that then serves it all', { timeout: WAIT_MS }, async () => {
    const dataDir = await tempDir('hkmi-cli-data-');
    const backupDir = await tempDir('hkmi-cli-backups-');
    const databaseUrl = testDatabaseKind === 'postgres' ? await createPostgresTestDatabase() : undefined;
    const settings = { DEMO: 'false', DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    const server = await startServer({ ...settings, ADMIN_EMPLOYEE_ID: ADMIN.employeeId, ADMIN_PASSWORD: ADMIN.password });
    const cookie = await signIn(server, ADMIN);
    const photos = await makeDistinctPhotos(16, 640, 480, 91);
    for (let n = 0; n < 8; n++) await uploadOne(server, cookie, n, photos[n]!);

    // Eight more uploads while the command runs against the serving app.
    const during = Promise.all(photos.slice(8).map((photo, i) => uploadOne(server, cookie, 8 + i, photo)));
    const backup = await runBackupCli(['backup', '--to', backupDir], settings);
    await during;
    expect(backup.code, backup.stderr + backup.stdout).toBe(0);
    const folder = /Backup made: (\S+)/.exec(backup.stdout)?.[1];
    expect(folder, backup.stdout).toBeDefined();
    const manifest = manifestSchema.parse(JSON.parse(await readFile(path.join(folder!, 'manifest.json'), 'utf8')));
    const records = manifest.tables.find((t) => t.name === 'inspection_logs')!.rows;
    expect(records).toBeGreaterThanOrEqual(8);
    expect(records).toBeLessThanOrEqual(16);
    expect(manifest.photos).toMatchObject({ count: records, missing: [], corrupt: [] });
    expect(backup.stdout).toContain(`${records} records`);

    // Restore into an empty target; a non-empty one is refused, unchanged.
    const refused = await runBackupCli(['restore', folder!], settings);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(databaseUrl ? /The database is not empty/ : /already holds a database/);

    const restoredDir = await tempDir('hkmi-cli-restored-');
    const restoredUrl = testDatabaseKind === 'postgres' ? await createEmptyPostgresTestDatabase() : undefined;
    const target = { DEMO: 'false', DATA_DIR: restoredDir, ...(restoredUrl ? { DATABASE_URL: restoredUrl } : {}) };
    const restore = await runBackupCli(['restore', folder!], target);
    expect(restore.code, restore.stderr + restore.stdout).toBe(0);
    expect(restore.stdout).toContain(`${records} records`);
    expect(restore.stdout).toContain('every table and photo matches the manifest');

    const restored = await startServer(target);
    const restoredCookie = await signIn(restored, ADMIN);
    const list = await fetch(`${restored.base}/api/inspections?limit=100`, { headers: { cookie: restoredCookie } });
    const logs = ((await list.json()) as { logs: Array<{ recordId: string; imageUrl: string; imageHash: string }> }).logs;
    expect(logs).toHaveLength(records);
    const byHash = new Map(photos.map((p) => [sha256(p), p]));
    for (const log of logs) {
      const image = await fetch(`${restored.base}${log.imageUrl}`, { headers: { cookie: restoredCookie } });
      expect(image.status).toBe(200);
      const bytes = Buffer.from(await image.arrayBuffer());
      expect(bytes.equals(byHash.get(log.imageHash)!)).toBe(true);
    }
  });

  it('says what is wrong with a folder that is not a backup, writing nothing', { timeout: WAIT_MS }, async () => {
    const restoredDir = await tempDir('hkmi-cli-restored-');
    const notABackup = await tempDir('hkmi-cli-not-a-backup-');
    const restoredUrl = testDatabaseKind === 'postgres' ? await createEmptyPostgresTestDatabase() : undefined;
    const run = await runBackupCli(['restore', notABackup], { DATA_DIR: restoredDir, ...(restoredUrl ? { DATABASE_URL: restoredUrl } : {}) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not a finished backup');
    // Nothing half-made is left behind to block the next try.
    expect(existsSync(path.join(restoredDir, 'pglite'))).toBe(false);
    const usage = await runBackupCli(['restore'], { DATA_DIR: restoredDir });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Usage: npm run backup');
  });
});
