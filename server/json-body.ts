/**
 * An answer kept as the bytes sent: lists reused from a cache are not serialized again for
 * every request, their gzip form is made the first time a client accepts it, and their ETag
 * lets a phone revalidate with a 304 instead of downloading again.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export class JsonBody {
  private compressed: Buffer | undefined;
  private tag: string | undefined;

  constructor(readonly json: Buffer) {}

  static of(value: unknown): JsonBody {
    return new JsonBody(Buffer.from(JSON.stringify(value)));
  }

  /** A page of 50 records is ~45 KB of JSON and ~6 KB gzipped: it matters on a phone's network. */
  get gzip(): Buffer {
    this.compressed ??= gzipSync(this.json, { level: 6 });
    return this.compressed;
  }

  get etag(): string {
    this.tag ??= `"${createHash('sha1').update(this.json).digest('base64url')}"`;
    return this.tag;
  }
}

/**
 * Sends a JsonBody, gzipped when the client accepts it. With `revalidate`, the answer carries
 * its ETag and a matching If-None-Match gets a 304 (private: answers depend on who asks);
 * without, `cacheControl` (default no-store). The bytes were checked against the route's
 * contract when made: a Buffer skips the route's response serializer.
 */
export function sendJsonBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: JsonBody,
  { revalidate = false, cacheControl = 'no-store' }: { revalidate?: boolean; cacheControl?: string } = {},
): FastifyReply {
  void reply.headers({ 'content-type': 'application/json; charset=utf-8', vary: 'Cookie, Accept-Encoding' });
  if (revalidate) {
    void reply.headers({ etag: body.etag, 'cache-control': 'private, no-cache' });
    if (request.headers['if-none-match'] === body.etag) return reply.status(304).send();
  } else {
    void reply.header('cache-control', cacheControl);
  }
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(body.gzip);
  return reply.send(body.json);
}
