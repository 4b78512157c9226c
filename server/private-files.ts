/**
 * Everything the app writes is for the user it runs as alone: the database and the backups
 * hold password hashes and phone numbers, the photos are the railway's, and the control socket
 * makes backups on request. Three layers keep it so:
 * - every entry point (server/main.ts, server/backup-cli.ts, scripts/create-admin.ts) calls
 *   keepFilesPrivate first, which sets the process's umask, so whatever the process creates
 *   is owner-only, and tightens the folders an older version made with wider rights;
 * - code that creates files itself (blob store, backups, lock file, the data folder) gives
 *   explicit modes as well, so the rule holds when it is reached another way (tests call
 *   buildApp directly);
 * - PGlite sets its files' modes itself, past the umask (PGlite 0.5 chmods its first ~970
 *   data files to 0666 and its pg_internal.init files to 0644), so the database folder is
 *   tightened after each open (tightenTree). Its folder is 0700 from the start, so no other
 *   user can reach those files in between.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Group and others lose every right on what the process creates. */
const OWNER_ONLY_UMASK = 0o077;
const GROUP_AND_OTHERS = 0o077;

/**
 * For an entry point, before it creates anything: new files owner-only from here on, and each
 * existing folder named (DATA_DIR, BACKUP_DIR) tightened to its owner. A folder that cannot be
 * tightened is said, not fatal: the app still works, the operator has to fix the rights.
 */
export async function keepFilesPrivate(folders: readonly string[], warn: (message: string) => void = console.warn): Promise<void> {
  process.umask(OWNER_ONLY_UMASK);
  for (const folder of folders) {
    const warning = await tightenFolder(folder);
    if (warning) warn(warning);
  }
}

/** Removes group and others' rights from a folder this user owns; answers a warning when they stay. */
async function tightenFolder(folder: string): Promise<string | null> {
  let info;
  try {
    info = await stat(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `Could not check the rights of ${folder}: ${error instanceof Error ? error.message : String(error)}`;
  }
  if ((info.mode & GROUP_AND_OTHERS) === 0) return null;
  const wide = `${folder} can be read by other users (mode ${(info.mode & 0o777).toString(8)})`;
  // Another user's folder: chmod would fail, and its owner may mean the rights it has.
  if (process.getuid && info.uid !== process.getuid()) return `${wide} and belongs to another user; make it private to this user (chmod 700).`;
  try {
    await chmod(folder, info.mode & PRIVATE_DIR_MODE);
    return null;
  } catch (error) {
    return `${wide} and could not be made private: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Removes group and others' rights from everything under `root`, `root` included (symbolic
 * links are left as they are), for files whose maker sets their mode itself. Synchronous: it
 * runs once as the database opens, over about a thousand files. Answers a warning for what
 * could not be changed.
 */
export function tightenTree(root: string): string | null {
  const failed: string[] = [];
  const visit = (at: string) => {
    let info;
    try {
      info = lstatSync(at);
    } catch {
      return;
    }
    if (info.isSymbolicLink()) return;
    if ((info.mode & GROUP_AND_OTHERS) !== 0) {
      try {
        chmodSync(at, info.mode & PRIVATE_DIR_MODE);
      } catch {
        failed.push(at);
      }
    }
    if (!info.isDirectory()) return;
    let names: string[] = [];
    try {
      names = readdirSync(at);
    } catch {
      failed.push(at);
    }
    for (const name of names) visit(path.join(at, name));
  };
  visit(root);
  return failed.length === 0 ? null : `${failed.length} files under ${root} can be read by other users and could not be made private (the first: ${failed[0]}).`;
}

/**
 * Runs `create` with the owner-only umask and puts the previous one back: for what Node gives
 * no mode to, a Unix socket above all, whose bind inside `listen` is synchronous, so the socket
 * never exists with wider rights, not even before a chmod could run. The umask is the
 * process's (the libuv threads writing files meanwhile share it), which is why this sets the
 * entry points' own umask rather than a stricter one: under an entry point it changes nothing
 * for them, and a folder made meanwhile never loses its owner's rights.
 */
export function withOwnerOnlyUmask<T>(create: () => T): T {
  const previous = process.umask(OWNER_ONLY_UMASK);
  try {
    return create();
  } finally {
    process.umask(previous);
  }
}
