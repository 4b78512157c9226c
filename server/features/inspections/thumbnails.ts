/**
 * Thumbnails for the admin's record grids: a 320 px WebP (~10-20 KB instead of a 0.5-2 MB
 * photo), made from the stored photo on first request and kept beside it in the BlobStore, so
 * it goes when the photo goes.
 */
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { Semaphore } from '../../semaphore.js';
import type { BlobStore, BlobVariant } from '../../storage/blob-store.js';

const THUMBNAIL_VARIANT: BlobVariant = 'thumb-320.webp';
export const THUMBNAIL_CONTENT_TYPE = 'image/webp';
const THUMBNAIL_EDGE = 320;

// Decoding a photo is CPU work: a page of 50 new thumbnails waits its turn rather than
// holding 50 decoded photos in memory at once.
const makingSlots = new Semaphore(Math.max(1, availableParallelism()));
/** One making per photo at a time: the second request for it waits for the first. */
const inFlight = new Map<string, Promise<Buffer | null>>();

/** The thumbnail's bytes; null when the photo is missing or cannot be decoded. */
export async function makeThumbnail(blobs: BlobStore, hash: string): Promise<Buffer | null> {
  // No thumbnail for a photo that is gone: the grid must not show what cannot be opened.
  if (!(await blobs.exists(hash))) return null;
  const kept = await blobs.readVariant(hash, THUMBNAIL_VARIANT);
  if (kept) return kept;
  const running = inFlight.get(hash);
  if (running) return running;
  const making = makingSlots
    .run(async () => {
      if (!(await blobs.exists(hash))) return null;
      let bytes: Buffer;
      try {
        bytes = await sharp(await blobs.read(hash), { limitInputPixels: 64_000_000 })
          .rotate()
          .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 70 })
          .toBuffer();
      } catch {
        return null;
      }
      await blobs.putVariant(hash, THUMBNAIL_VARIANT, bytes);
      // The photo may have been deleted while this was made: then no thumbnail stays behind.
      if (!(await blobs.exists(hash))) {
        await blobs.delete(hash);
        return null;
      }
      return bytes;
    })
    .finally(() => inFlight.delete(hash));
  inFlight.set(hash, making);
  return making;
}
