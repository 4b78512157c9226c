/**
 * The bare ceiling of `zip-download`: yazl alone zipping the same photo files
 * (bench/lib/bare-zip-server.ts, in a process of its own), timed the same way as the product.
 * This finds each record's photo file: the photo as the server answers it
 * (GET /api/image/download/:id), its sha256, and so its path in the server's content-addressed
 * store (DATA_DIR/blobs/<h[0:2]>/<h[2:4]>/<sha256>), checked to be there with that size.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { forkChild } from './child.js';
import { PROJECT_ROOT } from './server.js';
import type { ScenarioContext } from './types.js';

export type BareZipMessage = { type: 'ready'; port: number } | { type: 'failed'; message: string };

export interface ZipPhoto {
  path: string;
  name: string;
  size: number;
}

export interface ZipFilesMessage {
  type: 'files';
  files: Record<string, ZipPhoto>;
}

export const BARE_ZIP_PATH = '/zip';
const ENTRY = path.join(PROJECT_ROOT, 'bench', 'lib', 'bare-zip-server.ts');

export interface BareZipServer {
  baseUrl: string;
  pid: number;
  /** Distinct photo files among the records. */
  distinctFiles: number;
  stop(): Promise<void>;
}

/** Each record's photo file in the server's store (records sharing a photo share the file). */
async function photoFiles(ctx: ScenarioContext, cookie: string, ids: readonly string[]): Promise<Record<string, ZipPhoto>> {
  const files: Record<string, ZipPhoto> = {};
  for (const id of ids) {
    const response = await fetch(`${ctx.baseUrl}/api/image/download/${encodeURIComponent(id)}`, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`GET /api/image/download/${id} answered HTTP ${response.status}: ${bytes.toString('utf8').slice(0, 200)}`);
    const hash = createHash('sha256').update(bytes).digest('hex');
    const file = path.join(ctx.dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), hash);
    const size = (await stat(file).catch(() => null))?.size;
    if (size !== bytes.length) throw new Error(`the photo of ${id} is not at ${file} with its ${bytes.length} bytes (the store's layout changed?)`);
    files[id] = { path: file, name: `inspection_${id}.jpg`, size };
  }
  return files;
}

export async function startBareZipServer(ctx: ScenarioContext, cookie: string, ids: readonly string[]): Promise<BareZipServer> {
  const files = await photoFiles(ctx, cookie, ids);
  const child = forkChild<BareZipMessage>(ENTRY, {});
  try {
    child.send({ type: 'files', files } satisfies ZipFilesMessage);
    const message = await child.next(60_000);
    if (message.type !== 'ready') throw new Error(`the bare zip server failed: ${message.message}`);
    return {
      baseUrl: `http://127.0.0.1:${message.port}`,
      pid: child.pid,
      distinctFiles: new Set(Object.values(files).map((f) => f.path)).size,
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
