import { createHash, randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { BLOB_VARIANTS, type BlobStore, type BlobVariant, failOnRead, type ListedBlob, type PutOptions, SHA256_HEX, settledOnce, stageAndCommit, type StagedBlob, type StoredBlob } from './blob-store.js';
import { copySource, isMissingKey, statusOf } from './s3-client.js';
import { abortAbandonedUploads, type MultipartUpload, startMultipartUpload } from './s3-multipart.js';

/** An original's key below the prefix: `ab/cd/<sha256>`, the fan-out DiskBlobStore uses. */
const ORIGINAL_KEY_PATTERN = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;
/**
 * A streamed write goes up in parts of this size: S3 wants at least 5 MiB for every part but
 * the last, and about one part is all a write holds in memory.
 */
const PART_SIZE = 8 * 1024 * 1024;

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Put before every key, trailing slash included (`photos/`): several stores can share a bucket. */
  prefix?: string;
}

/**
 * Blobs under `prefix/ab/cd/<sha256>` in a bucket, variants beside them, as DiskBlobStore lays
 * them out on disk. A PUT is atomic in S3 (a reader gets the old object or the new, whole), so
 * a buffer goes straight to its key; a stream, whose hash is known only at its end, goes up to
 * `prefix/incoming/<uuid>` first and is copied into place once complete.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
  }

  private keyOf(hash: string): string {
    if (!SHA256_HEX.test(hash)) throw new Error(`Not a sha256 hex digest: ${hash}`);
    return `${this.prefix}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  }

  private variantKeyOf(hash: string, variant: BlobVariant): string {
    return `${this.keyOf(hash)}.${variant}`;
  }

  private get incomingPrefix(): string {
    return `${this.prefix}incoming/`;
  }

  async put(bytes: Buffer, options: PutOptions = {}): Promise<StoredBlob> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (options.replace || !(await this.exists(hash))) await this.putObject(this.keyOf(hash), bytes);
    return { hash, sizeBytes: bytes.length };
  }

  private async putObject(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentLength: bytes.length }));
  }

  /**
   * Reads the stream one part at a time: a stream that ends within the first part is in memory
   * anyway and is put under its hash directly; a longer one goes up as a multipart upload to
   * `incoming/<uuid>`, invisible until completed, then is copied to its hash's key.
   */
  async putStream(source: Readable, options: PutOptions = {}): Promise<StoredBlob> {
    return stageAndCommit(this, source, options);
  }

  /**
   * Up to one part (8 MiB, a photo) is held in memory and PUT under its hash on commit; a larger
   * stream goes up as a multipart upload to `incoming/<uuid>` and is copied on commit.
   */
  async stage(source: Readable): Promise<StagedBlob> {
    failOnRead(source);
    const hasher = createHash('sha256');
    let sizeBytes = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let upload: MultipartUpload | undefined;
    try {
      for await (const chunk of source) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        hasher.update(bytes);
        sizeBytes += bytes.length;
        pending.push(bytes);
        pendingBytes += bytes.length;
        while (pendingBytes >= PART_SIZE) {
          const joined = Buffer.concat(pending, pendingBytes);
          upload ??= await startMultipartUpload(this.client, this.bucket, `${this.incomingPrefix}${randomUUID()}`);
          await upload.send(joined.subarray(0, PART_SIZE));
          pending = pendingBytes > PART_SIZE ? [joined.subarray(PART_SIZE)] : [];
          pendingBytes -= PART_SIZE;
        }
      }
      if (upload) {
        if (pendingBytes > 0) await upload.send(Buffer.concat(pending, pendingBytes));
        await upload.complete();
      }
    } catch (error) {
      // An upload neither completed nor aborted keeps its parts (and the bill) until
      // removeAbandonedWrites or the bucket's lifecycle rule ends it.
      await upload?.abort().catch(() => undefined);
      throw error;
    }
    const hash = hasher.digest('hex');
    const target = this.keyOf(hash);
    const incoming = upload;
    let held: Buffer | null = incoming ? null : Buffer.concat(pending, pendingBytes);
    // Once copied the blob is stored: a delete that fails leaves litter removeAbandonedWrites sweeps, not an error.
    const dropIncoming = async () => {
      if (incoming) await this.deleteKey(incoming.key).catch(() => undefined);
    };
    return settledOnce(
      { hash, sizeBytes },
      {
        commit: async (options) => {
          try {
            if (!options.replace && (await this.exists(hash))) return;
            if (held) await this.putObject(target, held);
            // Server side, and atomic like a PUT. One CopyObject takes up to 5 GiB: reports are far smaller.
            else if (incoming) await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: target, CopySource: copySource(this.bucket, incoming.key) }));
          } finally {
            held = null;
            await dropIncoming();
          }
        },
        discard: async () => {
          held = null;
          await dropIncoming();
        },
      },
    );
  }

  /**
   * Deletes `incoming/` objects (a process killed between completing an upload and copying it)
   * and aborts multipart uploads under `incoming/` (killed while uploading) last touched before
   * `olderThan`. Several instances may share the bucket: a write still going on is newer than
   * the cutoff, so it is left alone.
   */
  async removeAbandonedWrites(olderThan: Date): Promise<number> {
    let removed = 0;
    for await (const object of this.listObjects(this.incomingPrefix)) {
      if (object.Key && object.LastModified && object.LastModified < olderThan) {
        await this.deleteKey(object.Key);
        removed += 1;
      }
    }
    return removed + (await abortAbandonedUploads(this.client, this.bucket, this.incomingPrefix, olderThan));
  }

  async *list(): AsyncIterable<ListedBlob> {
    for await (const object of this.listObjects(this.prefix)) {
      const match = ORIGINAL_KEY_PATTERN.exec(object.Key?.slice(this.prefix.length) ?? '');
      if (!match || object.Size === undefined || !object.LastModified) continue;
      const [, first, second, hash = ''] = match;
      if (hash.slice(0, 2) !== first || hash.slice(2, 4) !== second) continue;
      yield { hash, sizeBytes: object.Size, modifiedAt: object.LastModified };
    }
  }

  private async *listObjects(prefix: string) {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }));
      yield* page.Contents ?? [];
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async exists(hash: string): Promise<boolean> {
    return (await this.size(hash)) !== null;
  }

  async size(hash: string): Promise<number | null> {
    // No blob can have such a name: absent, as DiskBlobStore answers.
    if (!SHA256_HEX.test(hash)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      // A HEAD answer has no body to tell a missing key from a missing bucket: both are 404.
      if (isMissingKey(error) || statusOf(error) === 404) return null;
      throw error;
    }
  }

  async read(hash: string): Promise<Buffer> {
    return this.getBytes(this.keyOf(hash), hash);
  }

  async readHead(hash: string, bytes: number): Promise<Buffer> {
    const key = this.keyOf(hash);
    if (bytes <= 0) {
      if (!(await this.exists(hash))) throw missingBlob(hash);
      return Buffer.alloc(0);
    }
    try {
      const head = await this.getBytes(key, hash, `bytes=0-${bytes - 1}`);
      // Sliced: a server may answer a range with more (s3rver sends the whole object for bytes=0-0).
      return head.subarray(0, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
      // A range of an empty object is unsatisfiable (416): check that before failing.
      if ((await this.size(hash)) === 0) return Buffer.alloc(0);
      throw error;
    }
  }

  /** The object's bytes; a missing one fails with code ENOENT, as a missing file does. */
  private async getBytes(key: string, hash: string, range?: string): Promise<Buffer> {
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
      if (got.ContentRange?.endsWith('/0')) {
        // A range of an empty object, answered anyway (s3rver, with a length its body never
        // reaches: reading it would wait for the connection to time out).
        if (got.Body instanceof Readable) got.Body.destroy();
        return Buffer.alloc(0);
      }
      const bytes = (await got.Body?.transformToByteArray()) ?? new Uint8Array();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissingKey(error)) throw missingBlob(hash, error);
      throw error;
    }
  }

  /**
   * The stream is returned at once and fed when S3 answers. It fails as a missing file does
   * (code ENOENT) before any byte when there is no such blob, so an HTTP reply that has sent
   * no header yet can still answer with an error.
   */
  stream(hash: string, range?: { start: number; end: number }): Readable {
    const key = this.keyOf(hash);
    const out = new PassThrough();
    const request = new AbortController();
    let answered = false;
    // The reader went away before S3 answered (a download cancelled): drop the request.
    out.once('close', () => {
      if (!answered) request.abort();
    });
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range }), { abortSignal: request.signal }).then(
      (got) => {
        answered = true;
        const body = got.Body;
        if (!(body instanceof Readable)) {
          out.destroy(new Error(`S3 answered ${key} without a body stream`));
          return;
        }
        const expected = range ? `bytes ${range.start}-${range.end}/` : undefined;
        if (expected && !got.ContentRange?.startsWith(expected)) {
          // A server that ignores or trims the range: the caller has promised that many bytes (Content-Length).
          body.destroy();
          out.destroy(new Error(`S3 answered ${got.ContentRange ?? 'the whole object'} for ${Range} of ${key}`));
          return;
        }
        // Ends or fails `out` with the body; if `out` is destroyed first, the body is too, freeing the connection.
        pipeline(body, out).catch(() => undefined);
      },
      (error: unknown) => {
        answered = true;
        out.destroy(isMissingKey(error) ? missingBlob(hash, error) : (error as Error));
      },
    );
    return out;
  }

  async delete(hash: string): Promise<void> {
    // Variants first: a crash part way leaves the photo, whose deletion is retried, not a lone thumbnail.
    for (const variant of BLOB_VARIANTS) await this.deleteKey(this.variantKeyOf(hash, variant));
    await this.deleteKey(this.keyOf(hash));
  }

  async probeWrite(): Promise<void> {
    const key = `${this.incomingPrefix}readiness-${randomUUID()}`;
    await this.putObject(key, Buffer.from('readiness probe'));
    await this.deleteKey(key);
  }

  /** DeleteObject succeeds for a key that is not there too. */
  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async readVariant(hash: string, variant: BlobVariant): Promise<Buffer | null> {
    try {
      return await this.getBytes(this.variantKeyOf(hash, variant), hash);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async putVariant(hash: string, variant: BlobVariant, bytes: Buffer): Promise<void> {
    await this.putObject(this.variantKeyOf(hash, variant), bytes);
  }
}

/** What a missing blob fails with: code ENOENT, as DiskBlobStore's missing file. */
function missingBlob(hash: string, cause?: unknown): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`No blob ${hash}`, { cause });
  error.code = 'ENOENT';
  return error;
}
