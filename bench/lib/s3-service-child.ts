/** s3rver in its own process for `upload-s3`, started as the tests start it, so its CPU is not the load generator's. */
import { startS3Server } from '../../server/test/s3-server.js';

export type S3ServiceMessage =
  | { type: 'ready'; endpoint: string; bucket: string; directory: string; env: Record<string, string> }
  | { type: 'failed'; message: string };

const send = (message: S3ServiceMessage) => process.send?.(message);

async function main(): Promise<void> {
  const s3 = await startS3Server();
  // Once, though both a SIGTERM and the disconnect may come.
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= s3.stop().catch(() => undefined).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  const env = {
    BLOB_STORE: 's3',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  send({ type: 'ready', endpoint: s3.endpoint, bucket: s3.bucket, directory: s3.directory, env });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
