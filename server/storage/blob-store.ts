import type { Readable } from 'node:stream';

export interface StoredBlob {
  /** sha256 of the bytes, hex: also the blob's key. */
  hash: string;
  sizeBytes: number;
}

/**
 * Where photo bytes live. Content-addressed: the same bytes are stored once, under their
 * sha256. Local disk now; an S3-compatible store can implement the same interface later.
 */
export interface BlobStore {
  put(bytes: Buffer): Promise<StoredBlob>;
  exists(hash: string): Promise<boolean>;
  size(hash: string): Promise<number | null>;
  read(hash: string): Promise<Buffer>;
  /** The first bytes only, e.g. to tell the format by its magic number. */
  readHead(hash: string, bytes: number): Promise<Buffer>;
  stream(hash: string): Readable;
  delete(hash: string): Promise<void>;
}
