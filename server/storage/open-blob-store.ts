import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { DiskBlobStore } from './disk-blob-store.js';
import { createS3Client } from './s3-client.js';
import { S3BlobStore } from './s3-blob-store.js';

/** The photo store the configuration names: DATA_DIR/blobs, or an S3-compatible bucket that several instances share. */
export function openBlobStore(config: Pick<Config, 'blobStore' | 'dataDir'>): BlobStore {
  const store = config.blobStore;
  if (store.kind === 'disk') return new DiskBlobStore(path.join(config.dataDir, 'blobs'));
  const client = createS3Client({
    endpoint: store.endpoint,
    region: store.region,
    accessKeyId: store.accessKeyId,
    secretAccessKey: store.secretAccessKey,
    forcePathStyle: store.forcePathStyle,
  });
  return new S3BlobStore({ client, bucket: store.bucket, prefix: store.prefix });
}
