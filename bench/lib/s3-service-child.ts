/**
 * s3rver (an S3 look-alike writing to local disk) in a process of its own, forked by
 * bench/lib/s3-service.ts: started exactly as the tests start it (server/test/s3-server.ts: a
 * free port of 127.0.0.1, a fresh temp dir, silent, one new bucket, the S3RVER/S3RVER keys), so
 * that its CPU and its event loop are its own and not the load generator's.
 *
 * Messages: child -> parent {type: 'ready', ...TestS3Server's figures} or {type: 'failed', message}.
 * SIGTERM or the parent going away: stops s3rver and removes its directory.
 */
import { startS3Server } from '../../server/test/s3-server.js';
import type { S3ServiceMessage } from './s3-service.js';

async function main(): Promise<void> {
  const s3 = await startS3Server();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void s3
      .stop()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({
    type: 'ready',
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    directory: s3.directory,
  } satisfies S3ServiceMessage);
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies S3ServiceMessage);
  process.exit(1);
});
