/**
 * The embedded database belongs to one process: while the server runs, `npm run backup`
 * cannot open it. The server therefore listens on a Unix socket in DATA_DIR (readable by the
 * folder's owner only) and makes the backup itself when asked there; the command prints the
 * progress lines the server sends back. PostgreSQL needs none of this: the command connects
 * to the database itself.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { withOwnerOnlyUmask } from '../../private-files.js';
import type { BackupOutcome, BackupProgress } from './make-backup.js';

export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'control.sock');

/** One line of the answer: progress as it happens, then the outcome or the error. */
export type ControlLine = { progress: BackupProgress } | { outcome: SerializedOutcome } | { error: string };
export type SerializedOutcome =
  | { made: true; folder: string; manifest: Extract<BackupOutcome, { made: true }>['manifest']; removedBackups: string[] }
  | { made: false; reason: 'busy'; runningSince: string }
  | { made: false; reason: 'not-due' };

export async function startControlSocket(
  dataDir: string,
  backup: (to: string | undefined, onProgress: (p: BackupProgress) => void) => Promise<BackupOutcome>,
): Promise<Server> {
  const socketPath = controlSocketPath(dataDir);
  // A socket file left by a process that was killed: this process holds the data folder's lock, so it is stale.
  await rm(socketPath, { force: true });
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const write = (line: ControlLine) => res.write(`${JSON.stringify(line)}\n`);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      let to: string | undefined;
      try {
        to = (JSON.parse(body || '{}') as { to?: string }).to;
      } catch {
        write({ error: 'The request was not JSON.' });
        res.end();
        return;
      }
      backup(to, (progress) => write({ progress }))
        .then((outcome) => write({ outcome: outcome.made || outcome.reason !== 'busy' ? outcome : { ...outcome, runningSince: outcome.runningSince.toISOString() } }))
        .catch((error: unknown) => write({ error: error instanceof Error ? error.message : String(error) }))
        .finally(() => res.end());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve());
    // Whoever can connect can have a backup made anywhere this user can write: the socket is
    // owner-only from its bind (synchronous in listen; `exclusive` keeps it so in a cluster
    // worker too), never chmod-ed after the fact.
    withOwnerOnlyUmask(() => server.listen({ path: socketPath, exclusive: true }));
  });
  server.unref();
  return server;
}

/** Asks the running server for a backup; null when no server listens on DATA_DIR's socket. */
export async function requestBackupFromServer(
  dataDir: string,
  to: string | undefined,
  onProgress: (p: BackupProgress) => void,
): Promise<SerializedOutcome | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return null;
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/backup', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let outcome: SerializedOutcome | undefined;
      let failure: string | undefined;
      const lines = createInterface({ input: res, crlfDelay: Infinity });
      lines.on('line', (text) => {
        if (!text) return;
        const line = JSON.parse(text) as ControlLine;
        if ('progress' in line) onProgress(line.progress);
        else if ('outcome' in line) outcome = line.outcome;
        else failure = line.error;
      });
      lines.on('close', () => {
        if (failure !== undefined) reject(new Error(failure));
        else if (outcome) resolve(outcome);
        else reject(new Error('The server stopped answering before the backup was finished.'));
      });
    });
    // Nobody listening: the socket file is left from a server that is gone.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? resolve(null) : reject(error)));
    req.end(JSON.stringify({ to }));
  });
}
