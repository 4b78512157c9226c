/**
 * Photo uploads as the field app sends them, beside the budget table's bare baseline route under the same
 * load: `upload` with the photos on the server's disk, `upload-s3` with them in an S3-compatible
 * store. The measurement is one (bench/lib/upload-run.ts); only where the photos go differs.
 */
import path from 'node:path';
import { dirUsage } from '../lib/process-stats.js';
import { startS3Service, type S3Service } from '../lib/s3-service.js';
import type { Scenario } from '../lib/types.js';
import { runUploads, UPLOAD_CONNECTIONS, UPLOAD_HEIGHT, UPLOAD_PATH, UPLOAD_WIDTH } from '../lib/upload-run.js';

const LOAD = `POST ${UPLOAD_PATH}, ~2 MiB ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEG`;

/** The default BLOB_STORE=disk, under the scratch DATA_DIR/blobs. */
export const upload: Scenario = {
  name: 'upload',
  description: `${LOAD} + CoF metadata as the demo Technician, ${UPLOAD_CONNECTIONS} connections; bare upload route beside it`,
  budget: {
    description:
      'photo upload, 2 MB JPEG: >= 100 uploads/s on 2 cores and >= 80% of a bare Fastify route streaming the same multipart to a file with sha256, bounded memory (docs/architecture.md, Budgets)',
    minThroughput: 100,
    minThroughputRatioToBaseline: 0.8,
    cpus: 2,
  },
  run(ctx) {
    const blobsDir = path.join(ctx.dataDir, 'blobs');
    return runUploads(ctx, {
      label: 'upload',
      where: 'the scratch DATA_DIR/blobs',
      usage: () => dirUsage(blobsDir, { skip: (name) => name.endsWith('.tmp') }),
    });
  },
};

/** The s3rver the runner starts for upload-s3's own server (ownServer), until it is stopped. */
let service: S3Service | null = null;

/**
 * BLOB_STORE=s3 on s3rver, the test suite's S3 look-alike, in a process of its own. s3rver
 * writes plain files to the same disk, on this machine: the figures are the S3 code path's
 * overhead (SDK requests and signing, a HEAD before each PUT, s3rver's own CPU), not a real
 * object store's latency. No budget is judged: the budget table's is for the photo upload as deployed;
 * the bare baseline and the ratio are printed beside it all the same.
 */
export const uploadS3: Scenario = {
  name: 'upload-s3',
  description: `upload with BLOB_STORE=s3 (s3rver on local disk): ${LOAD}, ${UPLOAD_CONNECTIONS} connections; bare upload route beside it`,
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
