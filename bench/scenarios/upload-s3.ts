import type { Scenario } from '../lib/types.js';
import { startS3Service, type S3Service } from '../lib/s3-service.js';
import { runUploads, UPLOAD_CONNECTIONS, UPLOAD_HEIGHT, UPLOAD_PATH, UPLOAD_WIDTH } from '../lib/upload-run.js';

/** The s3rver the runner starts for this scenario's own server (ownServer), until it is stopped. */
let service: S3Service | null = null;

/**
 * `upload`'s measurement (bench/lib/upload-run.ts) on a server whose photos go to an
 * S3-compatible store: BLOB_STORE=s3 on s3rver, the test suite's S3 look-alike, in a process of
 * its own. s3rver writes plain files to the same disk, on this machine: the figures are the S3
 * code path's overhead (SDK requests and signing, a HEAD before each PUT, s3rver's own CPU), not
 * a real object store's latency. No budget is judged: DESIGN's is for the photo upload as
 * deployed; the bare baseline and the ratio are printed beside it all the same.
 */
export const uploadS3: Scenario = {
  name: 'upload-s3',
  description: `upload with BLOB_STORE=s3 (s3rver on local disk): POST ${UPLOAD_PATH}, ~2 MiB ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEG, ${UPLOAD_CONNECTIONS} connections; bare upload route beside it`,
  async ownServer(log) {
    const started = await startS3Service();
    log(`upload-s3: s3rver (pid ${started.pid}) on ${started.endpoint}, bucket ${started.bucket}, objects in ${started.directory}`);
    service = started;
    return {
      env: started.env,
      description: `BLOB_STORE=s3, bucket ${started.bucket} on s3rver 3.7 at ${started.endpoint} (its own process, objects as files in ${started.directory})`,
      async stop() {
        service = null;
        await started.stop();
      },
    };
  },
  run(ctx) {
    const s3 = service;
    if (!s3 || ctx.serverEnv.BLOB_STORE !== 's3') throw new Error('upload-s3 runs on a server of its own with BLOB_STORE=s3 (the runner starts it)');
    return runUploads(ctx, {
      label: 'upload-s3',
      where: `the S3 bucket (s3rver's objects under ${s3.directory})`,
      usage: () => s3.objects(),
      helpers: [{ name: 's3rver', pid: s3.pid }],
      notes: [
        `photo store: BLOB_STORE=s3, S3_ENDPOINT=${s3.endpoint}, bucket ${s3.bucket}: s3rver 3.7, a local S3 test server in its own process, ` +
          'keeping each object as a plain file on the same disk as everything else (no fsync, no network): these figures are the S3 code ' +
          "path's overhead (SDK requests and signing, a HEAD before each PUT, s3rver's own work), not a real object store's latency",
      ],
    });
  },
};
