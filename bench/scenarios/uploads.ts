/** Photo uploads as the field app sends them (lib/upload-run.ts): `upload` to the server's disk, `upload-s3` to s3rver. */
import path from 'node:path';
import { forkReady } from '../lib/child.js';
import { dirUsage } from '../lib/process-stats.js';
import type { S3ServiceReady } from '../lib/s3-service-child.js';
import { PROJECT_ROOT } from '../lib/server.js';
import type { Scenario } from '../lib/types.js';
import { runUploads, UPLOAD_CONNECTIONS, UPLOAD_HEIGHT, UPLOAD_PATH, UPLOAD_WIDTH } from '../lib/upload-run.js';

const LOAD = `POST ${UPLOAD_PATH}, ~2 MiB ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEG`;

export const upload: Scenario = {
  name: 'upload',
  description: `${LOAD} + CoF metadata as the demo Technician, ${UPLOAD_CONNECTIONS} connections; the bare and bare-durable upload routes beside it`,
  budget: {
    // No absolute uploads/s: the bare route itself does about 100 on this machine (the product's figure is printed).
    description:
      'photo upload, 2 MB JPEG: >= 80% of the bare-durable route (a bare Fastify route streaming the same multipart to a file with sha256, then fsync, rename, ' +
      'folder fsync and one INSERT, as durable as an acknowledged upload), bounded memory (docs/architecture.md, Budgets); the ratio to the plain bare route is printed, not judged',
    minThroughputRatioToBaseline: 0.8,
    cpus: 2,
  },
  run(ctx) {
    const blobsDir = path.join(ctx.dataDir, 'blobs');
    return runUploads(ctx, { label: 'upload', where: 'the scratch DATA_DIR/blobs', usage: () => dirUsage(blobsDir, { skip: (name) => name.endsWith('.tmp') }) });
  },
};

let s3: (S3ServiceReady & { pid: number }) | null = null;

// s3rver keeps objects as files on the same disk: the S3 code path's overhead, not a real store's latency; not judged (README).
export const uploadS3: Scenario = {
  name: 'upload-s3',
  description: `upload with BLOB_STORE=s3 (s3rver on local disk): ${LOAD}, ${UPLOAD_CONNECTIONS} connections; the bare and bare-durable upload routes beside it`,
  async ownServer(log) {
    const { child, ready: message } = await forkReady<S3ServiceReady>('s3rver', path.join(PROJECT_ROOT, 'bench', 'lib', 's3-service-child.ts'), {}, 60_000);
    log(`upload-s3: s3rver (pid ${child.pid}) on ${message.endpoint}, bucket ${message.bucket}, objects in ${message.directory}`);
    s3 = { ...message, pid: child.pid };
    return {
      env: message.env,
      description: `BLOB_STORE=s3, bucket ${message.bucket} on s3rver 3.7 at ${message.endpoint} (its own process, objects as files in ${message.directory})`,
      async stop() {
        s3 = null;
        await child.stop();
      },
    };
  },
  run(ctx) {
    const service = s3;
    if (!service || ctx.serverEnv.BLOB_STORE !== 's3') throw new Error('upload-s3 runs on a server of its own with BLOB_STORE=s3 (the runner starts it)');
    // s3rver keeps one `<name>._S3rver_object` file per object, beside its metadata.
    const objects = path.join(service.directory, service.bucket);
    return runUploads(ctx, {
      label: 'upload-s3',
      where: `the S3 bucket (s3rver's objects under ${service.directory})`,
      usage: () => dirUsage(objects, { skip: (name) => !name.endsWith('._S3rver_object') }),
      helpers: [{ name: 's3rver', pid: service.pid }],
      judged: false,
      notes: [
        `photo store: BLOB_STORE=s3, S3_ENDPOINT=${service.endpoint}, bucket ${service.bucket}: s3rver 3.7, a local S3 test server in its own process, ` +
          'keeping each object as a plain file on the same disk as everything else (no fsync, no network): these figures are the S3 code ' +
          "path's overhead (SDK requests and signing, a HEAD before each PUT, s3rver's own work), not a real object store's latency",
      ],
    });
  },
};
