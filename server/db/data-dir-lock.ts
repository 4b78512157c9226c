import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../private-files.js';

/**
 * PGlite is a single-process database: two processes opening one data folder would corrupt
 * it. A pid file in the folder makes the second start stop with a clear message instead.
 * A lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(lockFile: string): () => void {
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch {
    const holder = Number(readFileSync(lockFile, 'utf8').trim());
    if (holder && holder !== process.pid && isRunning(holder)) {
      throw new Error(
        `The embedded database in ${lockFile.replace(/[/\\][^/\\]+$/, '')} is in use by another process (pid ${holder}). Stop it first, or set DATA_DIR to another folder.`,
      );
    }
    writeFileSync(lockFile, String(process.pid));
  }
  return () => rmSync(lockFile, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
