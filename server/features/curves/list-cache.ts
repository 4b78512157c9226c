/**
 * The curve list is every phone's reference download (up to a zone's thousand curves, some
 * hundred KB of JSON) and changes rarely. Its serialized and gzipped forms are kept per
 * query and reused while the table's version (change_counters, read from the database on
 * every request; see server/db/versioned-cache.ts) is unchanged, so several instances stay
 * correct, and the ETag lets a phone revalidate with a 304 instead of downloading again.
 */
import { JsonBody } from '../../json-body.js';

export type CachedBody = JsonBody;

const MAX_ENTRIES = 64;

export class ListCache {
  private readonly entries = new Map<string, { version: string; body: CachedBody }>();

  get(key: string, version: string): CachedBody | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    // Most recently used last, so the oldest is first to go.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  set(key: string, version: string, value: unknown): CachedBody {
    const body = JsonBody.of(value);
    this.entries.delete(key);
    this.entries.set(key, { version, body });
    while (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return body;
  }
}
