/**
 * The bare ceiling of the records view's "download selected" (POST /api/images/download), run as
 * a child process (forked by bench/lib/bare-zip.ts, so that it has a process, an event loop and an
 * RSS of its own, as the server has): a Fastify app with one route and no hooks, sign-in, database
 * or validation, which zips with yazl the same photo files the server would (stored, not
 * deflated; each file opened only when the zip reaches it; the total size up front), streamed:
 *
 *   POST /zip {imageIds: [...]}  ->  application/zip of those records' photo files
 *
 * The parent first sends {type: 'files', files: {recordId: {path, name, size}}} (the photos the
 * server keeps under DATA_DIR/blobs for those records); child -> parent {type: 'ready', port} or
 * {type: 'failed', message}.
 */
import { createReadStream } from 'node:fs';
import Fastify from 'fastify';
import { ZipFile } from 'yazl';
import type { BareZipMessage, ZipFilesMessage } from './bare-zip.js';

/** A fixed entry date: the server gives each photo its taken-at time; the bytes are the same size. */
const MTIME = new Date('2024-01-01T00:00:00Z');

async function main(): Promise<void> {
  const { files } = await new Promise<ZipFilesMessage>((resolve) => process.once('message', (message) => resolve(message as ZipFilesMessage)));
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.post('/zip', async (request, reply) => {
    const ids = (request.body as { imageIds?: string[] } | null)?.imageIds ?? [];
    const zip = new ZipFile();
    for (const id of ids) {
      const file = files[id];
      if (!file) return reply.status(404).send({ error: `no photo for ${id}` });
      zip.addReadStreamLazy(file.name, { size: file.size, compress: false, mtime: MTIME }, (ready) => {
        ready(null, createReadStream(file.path));
      });
    }
    const totalSize = await new Promise<number>((resolve) => {
      zip.end({}, resolve);
    });
    void reply.header('content-type', 'application/zip');
    if (totalSize > 0) void reply.header('content-length', String(totalSize));
    return reply.send(zip.outputStream);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = () => {
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ type: 'ready', port } satisfies BareZipMessage);
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BareZipMessage);
  process.exit(1);
});
