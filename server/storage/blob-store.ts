import type { Readable } from 'node:stream';

export interface PutOptions {
  /**
   * Write even when a blob of this hash is there: the file tools put back a photo whose stored
   * bytes went bad. Still atomic: a reader sees the old bytes or the new, never half.
   */
  replace?: boolean;
}

/** A stored original (not a variant, not a write in progress), as list() yields it. */
export interface ListedBlob {
  hash: string;
  sizeBytes: number;
  modifiedAt: Date;
}

export interface StoredBlob {
  /** sha256 of the bytes, hex: also the blob's key. */
  hash: string;
  sizeBytes: number;
}

export interface StagedBlob extends StoredBlob {
  /** Names the bytes by their hash (kept as they are when that blob exists, unless `replace`). Once. */
  commit(options?: PutOptions): Promise<void>;
  /** Drops the staged bytes; nothing after a commit. */
  discard(): Promise<void>;
}

/**
 * Where photo bytes live. Content-addressed: the same bytes are stored once, under their
 * sha256. On local disk (DiskBlobStore) or in an S3-compatible bucket (S3BlobStore), which
 * several instances share.
 */
export interface BlobStore {
  put(bytes: Buffer, options?: PutOptions): Promise<StoredBlob>;
  /**
   * Stores what a stream yields (a report as it is rendered) without holding it in memory:
   * hashed while written, and only in place, under its hash, once complete and on disk.
   */
  putStream(source: Readable, options?: PutOptions): Promise<StoredBlob>;
  /**
   * The first half of putStream: the bytes are written (durably, on disk) and hashed, but not
   * yet named by their hash, so a caller can check them, and take the hash's lock, before
   * commit() makes them a blob. Staged bytes neither committed nor discarded (a killed
   * process) are what removeAbandonedWrites removes.
   */
  stage(source: Readable): Promise<StagedBlob>;
  /** Every stored original, in no set order (the file tools look for photos no record uses). */
  list(): AsyncIterable<ListedBlob>;
  exists(hash: string): Promise<boolean>;
  size(hash: string): Promise<number | null>;
  read(hash: string): Promise<Buffer>;
  /** The first bytes only, e.g. to tell the format by its magic number. */
  readHead(hash: string, bytes: number): Promise<Buffer>;
  /** The bytes, or only those from `start` to `end` (inclusive). */
  stream(hash: string, range?: { start: number; end: number }): Readable;
  /**
   * Removes what streamed writes left half done (a process killed while writing a report)
   * and last touched before `olderThan`; answers how many.
   */
  removeAbandonedWrites(olderThan: Date): Promise<number>;
  /** Removes the blob and every variant made from it. */
  delete(hash: string): Promise<void>;
  /** A file derived from a blob (a thumbnail), kept beside it; null when not made yet. */
  readVariant(hash: string, variant: BlobVariant): Promise<Buffer | null>;
  putVariant(hash: string, variant: BlobVariant, bytes: Buffer): Promise<void>;
  /**
   * Writes a few bytes where writes in progress go, and removes them: rejects when the store
   * cannot take a write now (the readiness check). What a killed process leaves of it is
   * swept by removeAbandonedWrites like any abandoned write.
   */
  probeWrite(): Promise<void>;
}

/** A blob's name: its sha256 in lower-case hex. Nothing else ever becomes a path or a key. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The files the server derives from a photo (server/features/inspections/photo-variants.ts); deleting the photo deletes these too. */
export const BLOB_VARIANTS = ['thumb-320.webp', 'print-1200.jpg'] as const;
export type BlobVariant = (typeof BLOB_VARIANTS)[number];

/**
 * A source that fails before the store starts reading it must fail the write, not the process:
 * a read stream of a file that is gone (a backup copying a photo deleted meanwhile) emits ENOENT
 * as soon as it opens, while the store is still opening its own file, and an 'error' event with
 * no listener ends Node. The error stays on the stream (`errored`), and the store's read of it
 * throws it to the caller.
 */
export function failOnRead(source: Readable): Readable {
  source.on('error', () => undefined);
  return source;
}

/** putStream by its two halves, as both stores write a stream: stage, then commit. */
export async function stageAndCommit(store: Pick<BlobStore, 'stage'>, source: Readable, options: PutOptions): Promise<StoredBlob> {
  const staged = await store.stage(source);
  await staged.commit(options);
  return { hash: staged.hash, sizeBytes: staged.sizeBytes };
}

/**
 * A staged blob that is settled once: a second commit is a caller's mistake and fails, while a
 * discard after a commit or a discard does nothing, so a caller may always discard in `finally`.
 */
export function settledOnce(
  stored: StoredBlob,
  settle: { commit(options: PutOptions): Promise<void>; discard(): Promise<void> },
): StagedBlob {
  let settled = false;
  return {
    ...stored,
    commit: async (options: PutOptions = {}) => {
      if (settled) throw new Error('A staged blob is committed or discarded once');
      settled = true;
      await settle.commit(options);
    },
    discard: async () => {
      if (settled) return;
      settled = true;
      await settle.discard();
    },
  };
}
