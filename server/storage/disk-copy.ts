/**
 * Copies blobs from one disk store into another on a worker thread: read, check the sha256,
 * write, flush, rename, flush the folder. A backup copies thousands of photos while the server
 * keeps answering; streamed through the main thread, each photo waited for some sixty turns of
 * an event loop that requests were holding, and its hashing took CPU from them there too.
 * Here the main thread sends the list once and gets one short message a photo.
 *
 * The worker's code is a plain script given to the Worker as text (`eval`): it then runs the same
 * from the built server, from tsx (`npm run backup`) and under Vitest, none of which would load
 * the others' file of it. It uses Node's own modules only.
 */
import { Worker } from 'node:worker_threads';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';

/** One blob to copy, as paths the source and target stores chose (DiskBlobStore). */
export interface DiskCopyJob {
  hash: string;
  source: string;
  target: string;
  /** Where the target store writes a file in progress (its removeAbandonedWrites finds what a crash left). */
  incomingDir: string;
}

export type DiskCopyResult =
  | { hash: string; outcome: 'copied' | 'present'; sizeBytes: number }
  /** No file under that hash in the source store. */
  | { hash: string; outcome: 'missing' }
  /** The source's bytes do not hash to their name: nothing was written. */
  | { hash: string; outcome: 'corrupt' };

const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs/promises');
const path = require('node:path');
const { createHash, randomUUID } = require('node:crypto');
const { jobs, concurrency, dirMode, fileMode } = workerData;

const absent = (error) => error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');

async function syncDir(dir) {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// As DiskBlobStore's makeDurableDir: each new folder's entry is flushed in its parent.
async function makeDurableDir(dir) {
  const created = await fs.mkdir(dir, { recursive: true, mode: dirMode });
  if (created === undefined) return;
  const fresh = [];
  let current = dir;
  while (current.length >= created.length) {
    fresh.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const made of fresh) await syncDir(path.dirname(made));
}

async function copy({ hash, source, target, incomingDir }) {
  try {
    return { hash, outcome: 'present', sizeBytes: (await fs.stat(target)).size };
  } catch (error) {
    if (!absent(error)) throw error;
  }
  let bytes;
  try {
    bytes = await fs.readFile(source);
  } catch (error) {
    if (absent(error)) return { hash, outcome: 'missing' };
    throw error;
  }
  if (createHash('sha256').update(bytes).digest('hex') !== hash) return { hash, outcome: 'corrupt' };
  const dir = path.dirname(target);
  await makeDurableDir(incomingDir);
  await makeDurableDir(dir);
  const temp = path.join(incomingDir, 'incoming-' + randomUUID() + '.tmp');
  try {
    const file = await fs.open(temp, 'w', fileMode);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
  return { hash, outcome: 'copied', sizeBytes: bytes.length };
}

let next = 0;
let failed = false;
async function lane() {
  while (!failed && next < jobs.length) {
    const job = jobs[next++];
    parentPort.postMessage({ result: await copy(job) });
  }
}
Promise.all(Array.from({ length: concurrency }, lane)).then(
  () => parentPort.postMessage({ done: true }),
  (error) => {
    failed = true;
    parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code } });
  },
);
`;

/**
 * Copies each job's blob on a worker thread, `concurrency` at a time (their reads, writes and
 * flushes overlap on libuv's pool); `onResult` hears each as it is done. Rejects with the first
 * error other than a missing source (a full disk, a folder it may not write), as a streamed copy
 * would, and stops the worker.
 */
export function copyBetweenDisks(jobs: readonly DiskCopyJob[], options: { concurrency: number; onResult: (result: DiskCopyResult) => void }): Promise<void> {
  if (jobs.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { jobs, concurrency: options.concurrency, dirMode: PRIVATE_DIR_MODE, fileMode: PRIVATE_FILE_MODE },
    });
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    worker.on('message', (message: { result?: DiskCopyResult; done?: true; error?: { message: string; code?: string } }) => {
      if (settled) return;
      if (message.result) {
        try {
          options.onResult(message.result);
        } catch (error) {
          settle(error instanceof Error ? error : new Error(String(error)));
        }
      } else if (message.error) {
        settle(Object.assign(new Error(message.error.message), message.error.code ? { code: message.error.code } : {}));
      } else if (message.done) {
        settle();
      }
    });
    worker.on('error', (error) => settle(error));
    worker.on('exit', (code) => settle(new Error(`The photo copy's worker stopped (exit code ${code}) before it finished`)));
  });
}
