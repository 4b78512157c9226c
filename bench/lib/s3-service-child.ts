/** s3rver in its own process for `upload-s3`, started as the tests start it, so its CPU is not the load generator's. */
import { startS3Server } from '../../server/test/s3-server.js';
import { serveAsChild } from './child.js';

export interface S3ServiceReady {
  endpoint: string;
  bucket: string;
  directory: string;
  env: Record<string, string>;
}

serveAsChild<S3ServiceReady>(async () => {
  const s3 = await startS3Server();
  const env = {
    BLOB_STORE: 's3',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  return { ready: { endpoint: s3.endpoint, bucket: s3.bucket, directory: s3.directory, env }, stop: () => s3.stop() };
});
