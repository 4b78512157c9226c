import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface WalkedEntry {
  path: string;
  kind: 'folder' | 'file' | 'socket' | 'other';
  /** Permission bits only (0o777). */
  mode: number;
}

/**
 * Every folder, file and socket under `root`, `root` included. An entry that goes between the
 * listing and its lstat (a photo's temporary file renamed into place) is left out.
 */
export async function walk(root: string): Promise<WalkedEntry[]> {
  const found: WalkedEntry[] = [];
  const visit = async (at: string) => {
    const info = await lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!info) return;
    const kind = info.isDirectory() ? 'folder' : info.isFile() ? 'file' : info.isSocket() ? 'socket' : 'other';
    found.push({ path: at, kind, mode: info.mode & 0o777 });
    if (kind !== 'folder') return;
    const names = await readdir(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const name of names) await visit(path.join(at, name));
  };
  await visit(root);
  return found;
}

/** The entries under `root` that group or others may read, write or search, as "mode path" lines. */
export async function openToOthers(root: string): Promise<string[]> {
  return (await walk(root)).filter((entry) => (entry.mode & 0o077) !== 0).map((entry) => `${entry.mode.toString(8)} ${entry.path}`);
}

/**
 * Runs `body` with this process's umask set to `mask` (0o000: everything made wide unless the
 * code under test says otherwise), then puts the previous umask back. Children spawned
 * meanwhile inherit `mask`.
 */
export async function withUmask<T>(mask: number, body: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await body();
  } finally {
    process.umask(previous);
  }
}
