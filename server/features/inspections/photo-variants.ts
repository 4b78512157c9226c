/**
 * Files derived from a stored photo, made on first need and kept beside it in the BlobStore
 * (so they go when the photo goes); the original is never changed:
 * - the thumbnail for the admin's record grids: a 320 px WebP (~10-20 KB instead of 0.5-2 MB);
 * - the print copy for the PDF reports (docs/architecture.md, 'Reports'): 1200 px on the long edge, JPEG
 *   quality 60, about 170 dpi across half an A4 page and a tenth of a phone photo's bytes, so
 *   a report of a thousand photos stays a file that opens on a phone. pdfkit embeds a JPEG as
 *   it is, without decoding it, so a report never decodes a photo.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { Semaphore } from '../../semaphore.js';
import type { BlobStore, BlobVariant } from '../../storage/blob-store.js';

export interface PhotoVariant {
  variant: BlobVariant;
  contentType: string;
  derive(photo: Sharp): Sharp;
}

export const THUMBNAIL: PhotoVariant = {
  variant: 'thumb-320.webp',
  contentType: 'image/webp',
  derive: (photo) => photo.resize(320, 320, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 70 }),
};

export const PRINT_COPY: PhotoVariant = {
  variant: 'print-1200.jpg',
  contentType: 'image/jpeg',
  derive: (photo) => photo.resize(1200, 1200, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 60 }),
};

// Decoding a photo is CPU work: a page of 50 new thumbnails, or a report's photos, wait their
// turn rather than holding 50 decoded photos in memory at once.
const makingSlots = new Semaphore(Math.max(1, availableParallelism()));
/** One making per photo and variant at a time: the second request for it waits for the first. */
const inFlight = new Map<string, Promise<Buffer | null>>();

/**
 * The variant's bytes; null when the photo is missing or cannot be decoded. `slots` bounds how
 * many are made at once: by default one per core; a report passes fewer, so making its copies
 * leaves cores for uploads and the records view.
 */
export async function derivedPhoto(blobs: BlobStore, hash: string, kind: PhotoVariant, slots: Semaphore = makingSlots): Promise<Buffer | null> {
  // Nothing derived from a photo that is gone: no one must see what cannot be opened.
  if (!(await blobs.exists(hash))) return null;
  const kept = await blobs.readVariant(hash, kind.variant);
  if (kept) return kept;
  const key = `${kind.variant}:${hash}`;
  const running = inFlight.get(key);
  if (running) return running;
  const making = slots
    .run(async () => {
      if (!(await blobs.exists(hash))) return null;
      let bytes: Buffer;
      try {
        // rotate(): phones store portrait photos sideways with an EXIF turn; print them upright.
        bytes = await kind.derive(sharp(await blobs.read(hash), { limitInputPixels: 64_000_000 }).rotate()).toBuffer();
      } catch {
        return null;
      }
      await blobs.putVariant(hash, kind.variant, bytes);
      // The photo may have been deleted while this was made: then nothing stays behind.
      if (!(await blobs.exists(hash))) {
        await blobs.delete(hash);
        return null;
      }
      return bytes;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, making);
  return making;
}

export type RemakeOutcome = 'remade' | 'missing' | 'corrupt' | 'undecodable';

/**
 * Decodes a photo once and writes every derived file from that one decode, replacing what was
 * there: the full decode is the costly part (a 1920x1080 JPEG takes tens of ms of CPU), so
 * the print copy is made from it and the thumbnail from the print copy's pixels. 'undecodable'
 * when the pixels cannot be read whole and clean (a damaged or truncated photo), and nothing is
 * written.
 */
export async function writePhotoVariants(blobs: BlobStore, hash: string, original: Buffer): Promise<'remade' | 'undecodable'> {
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    // sharp's default failOn ('warning'): corrupt data is undecodable, as it is for the thumbnail made on demand.
    pixels = await sharp(original, { limitInputPixels: 64_000_000 })
      // rotate(): phones store portrait photos sideways with an EXIF turn; show them upright.
      .rotate()
      .resize(1200, 1200, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return 'undecodable';
  }
  const raw = { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels };
  for (const kind of [PRINT_COPY, THUMBNAIL]) {
    const bytes = await kind.derive(sharp(pixels.data, { raw })).toBuffer();
    await blobs.putVariant(hash, kind.variant, bytes);
  }
  return 'remade';
}

/**
 * Makes every derived file of a photo again from its original (the file tools' recreate),
 * replacing what was there. Only from an original whose bytes still hash to its name: nothing
 * is derived from a damaged photo. (The photo worker calls writePhotoVariants itself: its
 * photo was hashed on the way in.)
 */
export async function remakePhotoVariants(blobs: BlobStore, hash: string, slots: Semaphore = makingSlots): Promise<RemakeOutcome> {
  return slots.run(async () => {
    if (!(await blobs.exists(hash))) return 'missing';
    const original = await blobs.read(hash);
    if (createHash('sha256').update(original).digest('hex') !== hash) return 'corrupt';
    return writePhotoVariants(blobs, hash, original);
  });
}
