/**
 * An S3-compatible photo store for a bench server (BLOB_STORE=s3): s3rver 3.7, the test suite's
 * S3 look-alike, in a process of its own (bench/lib/s3-service-child.ts). It keeps the objects
 * as plain files in a temp dir on the same disk as everything else and has no network between
 * it and the server: a scenario on it measures the S3 code path (the SDK's requests, the
 * signing, the extra HEAD before a PUT, s3rver's own work), not a real object store's latency.
 */
import path from 'node:path';
import { forkChild } from './child.js';
import { dirUsage, type DirUsage } from './process-stats.js';
import { PROJECT_ROOT } from './server.js';

export type S3ServiceMessage =
  | {
      type: 'ready';
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      directory: string;
    }
  | { type: 'failed'; message: string };

export interface S3Service {
  pid: number;
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket's objects (one `<name>._S3rver_object` file per object, beside its metadata). */
  directory: string;
  /** The server's environment for this store: BLOB_STORE=s3 and the S3_* settings. */
  env: Record<string, string>;
  /** The objects in the bucket and their bytes, read from s3rver's directory. */
  objects(): Promise<DirUsage>;
  /** Ends s3rver and removes its directory. */
  stop(): Promise<void>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'lib', 's3-service-child.ts');
const OBJECT_SUFFIX = '._S3rver_object';

export async function startS3Service(): Promise<S3Service> {
  const child = forkChild<S3ServiceMessage>(ENTRY, {});
  try {
    const message = await child.next(60_000);
    if (message.type !== 'ready') throw new Error(`s3rver did not start: ${message.message}`);
    return {
      pid: child.pid,
      endpoint: message.endpoint,
      bucket: message.bucket,
      directory: message.directory,
      env: {
        BLOB_STORE: 's3',
        S3_BUCKET: message.bucket,
        S3_ENDPOINT: message.endpoint,
        S3_REGION: message.region,
        S3_ACCESS_KEY_ID: message.accessKeyId,
        S3_SECRET_ACCESS_KEY: message.secretAccessKey,
      },
      objects: () => dirUsage(path.join(message.directory, message.bucket), { skip: (name) => !name.endsWith(OBJECT_SUFFIX) }),
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
