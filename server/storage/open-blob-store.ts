import path from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { DiskBlobStore } from './disk-blob-store.js';

/**
 * The photo store the configuration names: DATA_DIR/blobs, or an S3-compatible bucket that
 * several instances share. The S3 store, and the AWS SDK with it, is loaded only when it is the
 * one configured: on disk its modules would only weigh on the heap (server/lazy-module.ts).
 */
export async function openBlobStore(config: Pick<Config, 'blobStore' | 'dataDir'>): Promise<BlobStore> {
  const store = config.blobStore;
  if (store.kind === 'disk') return new DiskBlobStore(path.join(config.dataDir, 'blobs'));
  const [{ createS3Client }, { S3BlobStore }] = await Promise.all([import('./s3-client.js'), import('./s3-blob-store.js')]);
  const client = createS3Client({
    endpoint: store.endpoint,
    region: store.region,
    accessKeyId: store.accessKeyId,
    secretAccessKey: store.secretAccessKey,
    forcePathStyle: store.forcePathStyle,
  });
  return new S3BlobStore({ client, bucket: store.bucket, prefix: store.prefix });
}
