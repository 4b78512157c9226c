/**
 * The bare baseline for photo uploads (docs/architecture.md, 'Budgets'): "a bare Fastify route that streams the
 * same multipart to a file with sha256". bench/lib/bare-upload-server.ts is the route; this
 * starts it in a process of its own with a scratch folder under the system temp dir (the same
 * disk as the server's DATA_DIR), removed by stop(). An upload scenario puts the same load on it
 * as on the product (the same bodies, connections and duration) and compares the throughput.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { forkChild } from './child.js';
import { dirUsage, type DirUsage } from './process-stats.js';
import { PROJECT_ROOT } from './server.js';

export type BareUploadMessage = { type: 'ready'; port: number } | { type: 'failed'; message: string };

export const BARE_UPLOAD_PATH = '/upload';

export interface BareUploadServer {
  baseUrl: string;
  pid: number;
  /** Where it writes the files. */
  dir: string;
  /** The files it has written (finished ones: not the `.tmp` of uploads in flight). */
  files(): Promise<DirUsage>;
  stop(): Promise<void>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'lib', 'bare-upload-server.ts');

export async function startBareUploadServer(): Promise<BareUploadServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-bare-upload-'));
  const child = forkChild<BareUploadMessage>(ENTRY, { BARE_UPLOAD_DIR: dir });
  const stop = async () => {
    await child.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const message = await child.next(60_000);
    if (message.type !== 'ready') throw new Error(`the bare upload server failed: ${message.message}`);
    return {
      baseUrl: `http://127.0.0.1:${message.port}`,
      pid: child.pid,
      dir,
      files: () => dirUsage(dir, { skip: (name) => name.endsWith('.tmp') }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
