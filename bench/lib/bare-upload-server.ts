/**
 * The bare baseline (docs/architecture.md, 'Budgets') for photo uploads, run as a child process (forked by
 * bench/lib/bare-upload.ts, so that it has a process and an event loop of its own, as the
 * server has): "a bare Fastify route that streams the same multipart to a file with sha256".
 *
 *   POST /upload (multipart: `metadata` JSON, then `file`)  ->  201 {hash, sizeBytes}
 *
 * @fastify/multipart with the server's limits; the metadata is parsed as JSON and nothing else
 * is done with it; the file part is streamed through sha256 into BARE_UPLOAD_DIR/incoming-<uuid>.tmp
 * and renamed to BARE_UPLOAD_DIR/<sha256>. No sign-in, hooks, validation, image check, fsync,
 * database or blob-store layout.
 *
 * Messages: child -> parent {type: 'ready', port} or {type: 'failed', message}.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import Fastify from 'fastify';
import type { BareUploadMessage } from './bare-upload.js';

/** As the server's: a photo up to 10 MB, one file, a few fields. */
const LIMITS = { fileSize: 10 * 1024 * 1024, files: 1, fields: 4, parts: 6, fieldSize: 64 * 1024, headerPairs: 100 };

async function main(): Promise<void> {
  const dir = process.env.BARE_UPLOAD_DIR;
  if (!dir) throw new Error('BARE_UPLOAD_DIR is not set');
  const app = Fastify({ logger: false });
  await app.register(fastifyMultipart, { limits: LIMITS });
  app.post('/upload', async (request, reply) => {
    let metadata: unknown;
    let stored: { hash: string; sizeBytes: number } | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'metadata') metadata = JSON.parse(String(part.value));
        continue;
      }
      const hasher = createHash('sha256');
      let sizeBytes = 0;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hasher.update(chunk);
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      const temp = path.join(dir, `incoming-${randomUUID()}.tmp`);
      try {
        await pipeline(part.file, hashing, createWriteStream(temp));
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      const hash = hasher.digest('hex');
      await rename(temp, path.join(dir, hash));
      stored = { hash, sizeBytes };
    }
    if (!stored || metadata === undefined) return reply.code(400).send({ error: 'send metadata and file' });
    return reply.code(201).send(stored);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = () => {
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ type: 'ready', port } satisfies BareUploadMessage);
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BareUploadMessage);
  process.exit(1);
});
