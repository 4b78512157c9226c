/**
 * Byte ranges (RFC 9110 section 14): a download cut by a poor network resumes from where it
 * stopped instead of starting again. One range per request, which is what browsers and
 * download managers ask for; a list of ranges is answered with the whole file.
 */
import { AppError } from './app-error.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from './storage/blob-store.js';

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * The range a Range header asks of a file of `size` bytes: null to send the whole file (no
 * header, another unit, several ranges, or a header that does not parse), 'unsatisfiable'
 * when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // The last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export interface StoredFile {
  hash: string;
  sizeBytes: number;
  contentType: string;
  /** Content-Disposition, for an attachment. */
  disposition?: string;
}

/** If-None-Match names this version: it may list several tags, weak or not (RFC 9110 13.1.2). */
export function clientHas(request: FastifyRequest, etag: string): boolean {
  const asked = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return asked.includes(etag) || asked.includes('*');
}

/**
 * Answers a stored file with its ETag (the content hash: its bytes never change under it),
 * a 304 when the client has it, and a 206 for a range, unless If-Range names another version.
 */
export function sendStoredFile(request: FastifyRequest, reply: FastifyReply, blobs: BlobStore, file: StoredFile, cacheControl: string): FastifyReply {
  const etag = `"${file.hash}"`;
  void reply.headers({ etag, 'cache-control': cacheControl, 'accept-ranges': 'bytes' });
  if (file.disposition) void reply.header('content-disposition', file.disposition);
  if (clientHas(request, etag)) return reply.status(304).send();
  const ifRange = request.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, file.sizeBytes) : null;
  if (range === 'unsatisfiable') {
    // A JSON error like every refusal, with the file's size where a client resumes from.
    throw new AppError('RANGE_NOT_SATISFIABLE', `The range asked for is not within the file of ${file.sizeBytes} bytes`, {
      headers: { 'content-range': `bytes */${file.sizeBytes}` },
    });
  }
  void reply.header('content-type', file.contentType);
  if (range === null) {
    return reply.header('content-length', String(file.sizeBytes)).send(blobs.stream(file.hash));
  }
  return reply
    .status(206)
    .headers({ 'content-range': `bytes ${range.start}-${range.end}/${file.sizeBytes}`, 'content-length': String(range.end - range.start + 1) })
    .send(blobs.stream(file.hash, range));
}
