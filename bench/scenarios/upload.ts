import path from 'node:path';
import { dirUsage } from '../lib/process-stats.js';
import type { Scenario } from '../lib/types.js';
import { runUploads, UPLOAD_CONNECTIONS, UPLOAD_HEIGHT, UPLOAD_PATH, UPLOAD_WIDTH } from '../lib/upload-run.js';

/**
 * Photo uploads as the field app sends them, the photos kept on the server's disk (the
 * default BLOB_STORE=disk, under the scratch DATA_DIR/blobs), beside DESIGN's bare baseline
 * route under the same load. The measurement is bench/lib/upload-run.ts, shared with upload-s3.
 */
export const upload: Scenario = {
  name: 'upload',
  description: `POST ${UPLOAD_PATH}, ~2 MiB ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEG + CoF metadata as the demo Technician, ${UPLOAD_CONNECTIONS} connections; bare upload route beside it`,
  budget: {
    description:
      'photo upload, 2 MB JPEG: >= 100 uploads/s on 2 cores and >= 80% of a bare Fastify route streaming the same multipart to a file with sha256, bounded memory (docs/architecture.md, "Budgets")',
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
