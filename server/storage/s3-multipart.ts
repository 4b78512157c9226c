/**
 * Multipart uploads, how the S3 blob store writes a stream longer than one part: started under
 * a key of the store's `incoming/` prefix, parts sent in order, then completed (or aborted).
 * A process killed while uploading leaves its upload open; abortAbandonedUploads ends those.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { errorName, statusOf } from './s3-client.js';

export interface MultipartUpload {
  key: string;
  send(bytes: Buffer): Promise<void>;
  complete(): Promise<void>;
  abort(): Promise<void>;
}

/** Begins a multipart upload to `key`; parts are sent in order, one at a time. */
export async function startMultipartUpload(client: S3Client, bucket: string, key: string): Promise<MultipartUpload> {
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const uploadId = created.UploadId;
  if (!uploadId) throw new Error(`S3 started no multipart upload for ${key}`);
  const parts: CompletedPart[] = [];
  return {
    key,
    async send(bytes) {
      const PartNumber = parts.length + 1;
      const sent = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: bytes, ContentLength: bytes.length }),
      );
      parts.push({ PartNumber, ETag: sent.ETag });
    },
    async complete() {
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    },
    async abort() {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    },
  };
}

/**
 * Aborts the multipart uploads under `prefix` last touched before `olderThan`; answers how
 * many. Several instances may share the bucket: an upload still going on is newer than the
 * cutoff, so it is left alone.
 */
export async function abortAbandonedUploads(client: S3Client, bucket: string, prefix: string, olderThan: Date): Promise<number> {
  let aborted = 0;
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  do {
    let page;
    try {
      page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker, UploadIdMarker }));
    } catch (error) {
      // Not every S3-compatible service lists uploads (s3rver does not); its lifecycle rules, if any, are the fallback.
      if (statusOf(error) === 501 || errorName(error) === 'NotImplemented') return aborted;
      throw error;
    }
    for (const upload of page.Uploads ?? []) {
      if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
      // Started long ago is not abandoned: a slow render may still be sending parts.
      if (await touchedSince(client, bucket, upload.Key, upload.UploadId, olderThan)) continue;
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
        aborted += 1;
      } catch (error) {
        // Completed or aborted since it was listed.
        if (errorName(error) !== 'NoSuchUpload') throw error;
      }
    }
    KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
  } while (KeyMarker);
  return aborted;
}

/** Whether a multipart upload received a part at or after `since` (or ended meanwhile). */
async function touchedSince(client: S3Client, bucket: string, key: string, uploadId: string, since: Date): Promise<boolean> {
  let PartNumberMarker: string | undefined;
  do {
    let page;
    try {
      page = await client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker }));
    } catch (error) {
      if (errorName(error) === 'NoSuchUpload') return true;
      throw error;
    }
    if ((page.Parts ?? []).some((part) => part.LastModified && part.LastModified >= since)) return true;
    PartNumberMarker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
  } while (PartNumberMarker);
  return false;
}
