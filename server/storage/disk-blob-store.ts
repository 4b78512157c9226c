import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';
import { type DiskCopyJob } from './disk-copy.js';
import { BLOB_VARIANTS, type BlobStore, type BlobVariant, failOnRead, type ListedBlob, type PutOptions, SHA256_HEX, settledOnce, stageAndCommit, type StagedBlob, type StoredBlob } from './blob-store.js';

/** How many bytes of a streamed write go to disk at once. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** A streamed write in progress (putStream), named before its hash is known. */
const INCOMING_PATTERN = /^incoming-[0-9a-f-]+\.tmp$/;

/**
 * Blobs under `root/ab/cd/<sha256>`, variants beside them. Every write goes to
 * `root/incoming-<uuid>.tmp` first, is flushed, then renamed into place and its folder flushed.
 * Folders and files are the owner's only (server/private-files.ts); a name that is not a
 * sha256 never becomes a path (pathOf).
 */
export class DiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(hash: string): string {
    if (!SHA256_HEX.test(hash)) throw new Error(`Not a sha256 hex digest: ${hash}`);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  /** What copyBetweenDisks (disk-copy.ts) needs to copy a blob of this store into `target`: the paths each store gives it. */
  copyJobTo(target: DiskBlobStore, hash: string): DiskCopyJob {
    return { hash, source: this.pathOf(hash), target: target.pathOf(hash), incomingDir: target.root };
  }

  async put(bytes: Buffer, options: PutOptions = {}): Promise<StoredBlob> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const target = this.pathOf(hash);
    if (options.replace || !(await this.exists(hash))) await this.writeAtomically(target, bytes);
    return { hash, sizeBytes: bytes.length };
  }

  /** A temporary name for a write in progress: in the root, where removeAbandonedWrites finds what a killed process left. */
  private async incomingPath(): Promise<string> {
    await makeDurableDir(this.root);
    return path.join(this.root, `incoming-${randomUUID()}.tmp`);
  }

  /**
   * Writes a file so that once this resolves it survives a crash or a power cut, whole: the
   * bytes are flushed under a temporary name, renamed into place (atomic: a reader never sees
   * half a file), and the folder entry is flushed too. A row that points at the file is
   * committed only after this, so a record acknowledged to a phone never names a photo the
   * disk lost.
   */
  private async writeAtomically(target: string, bytes: Buffer): Promise<void> {
    const dir = path.dirname(target);
    await makeDurableDir(dir);
    const temp = await this.incomingPath();
    try {
      const file = await open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDir(dir);
  }

  async probeWrite(): Promise<void> {
    const temp = await this.incomingPath();
    try {
      const file = await open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        await file.writeFile('readiness probe');
      } finally {
        await file.close();
      }
    } finally {
      await rm(temp, { force: true });
    }
  }

  async putStream(source: Readable, options: PutOptions = {}): Promise<StoredBlob> {
    return stageAndCommit(this, source, options);
  }

  async stage(source: Readable): Promise<StagedBlob> {
    failOnRead(source);
    const temp = await this.incomingPath();
    const hasher = createHash('sha256');
    let sizeBytes = 0;
    try {
      const file = await open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        // The chunks go to disk a batch at a time: one write per socket read (64 KB, some 30 for a
        // photo) made as many trips through libuv's thread pool, each waking a thread on a busy
        // machine. A batch holds no more than the stream would buffer meanwhile anyway.
        let batch: Buffer[] = [];
        let batchBytes = 0;
        for await (const chunk of source) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
          hasher.update(bytes);
          sizeBytes += bytes.length;
          batch.push(bytes);
          batchBytes += bytes.length;
          if (batchBytes >= WRITE_BATCH_BYTES) {
            await file.writev(batch);
            batch = [];
            batchBytes = 0;
          }
        }
        if (batch.length > 0) await file.writev(batch);
        // On disk before it is named: a crash never leaves a short file under a hash.
        await file.sync();
      } finally {
        await file.close();
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const hash = hasher.digest('hex');
    return settledOnce(
      { hash, sizeBytes },
      {
        commit: async (options) => {
          const target = this.pathOf(hash);
          try {
            if (!options.replace && (await this.exists(hash))) {
              await rm(temp, { force: true });
              return;
            }
            await makeDurableDir(path.dirname(target));
            await rename(temp, target);
          } catch (error) {
            await rm(temp, { force: true });
            throw error;
          }
          await syncDir(path.dirname(target));
        },
        discard: () => rm(temp, { force: true }),
      },
    );
  }

  async removeAbandonedWrites(olderThan: Date): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names.filter((n) => INCOMING_PATTERN.test(n))) {
      const file = path.join(this.root, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtime < olderThan) {
        await rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  async *list(): AsyncIterable<ListedBlob> {
    for (const first of await readdirOrEmpty(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(first)) continue;
      for (const second of await readdirOrEmpty(path.join(this.root, first))) {
        if (!/^[0-9a-f]{2}$/.test(second)) continue;
        const dir = path.join(this.root, first, second);
        for (const name of await readdirOrEmpty(dir)) {
          if (!SHA256_HEX.test(name)) continue;
          const info = await stat(path.join(dir, name)).catch(() => null);
          if (info) yield { hash: name, sizeBytes: info.size, modifiedAt: info.mtime };
        }
      }
    }
  }

  async exists(hash: string): Promise<boolean> {
    return (await this.size(hash)) !== null;
  }

  async size(hash: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(hash))).size;
    } catch {
      return null;
    }
  }

  read(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash));
  }

  async readHead(hash: string, bytes: number): Promise<Buffer> {
    const file = await open(this.pathOf(hash), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await file.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  stream(hash: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(hash), range ? { start: range.start, end: range.end } : {});
  }

  async delete(hash: string): Promise<void> {
    // Variants first: a crash part way leaves the photo, whose deletion is retried, not a lone thumbnail.
    for (const variant of BLOB_VARIANTS) await rm(this.variantPathOf(hash, variant), { force: true });
    await rm(this.pathOf(hash), { force: true });
  }

  private variantPathOf(hash: string, variant: BlobVariant): string {
    return `${this.pathOf(hash)}.${variant}`;
  }

  async readVariant(hash: string, variant: BlobVariant): Promise<Buffer | null> {
    try {
      return await readFile(this.variantPathOf(hash, variant));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async putVariant(hash: string, variant: BlobVariant, bytes: Buffer): Promise<void> {
    await this.writeAtomically(this.variantPathOf(hash, variant), bytes);
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Flushes a folder's entries (a rename or a new file in it) to disk. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes `dir` and any missing parents, flushing each new folder's entry in its parent: a new
 * ab/cd/ folder lost in a crash would take the photos in it along.
 */
export async function makeDurableDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (created === undefined) return;
  // `created` is the first folder made; it and every folder below it up to `dir` are new.
  let current = dir;
  const fresh: string[] = [];
  while (current.length >= created.length) {
    fresh.push(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const made of fresh) await syncDir(path.dirname(made));
}
