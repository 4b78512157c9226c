/**
 * The checks a photo passes on the request path, read from its bytes as they stream in and
 * never from the file name or the declared type: a known image format by its magic number
 * (refused at the first bytes, before the rest is read), at most 10 MB, the dimensions from its
 * header, and for a JPEG its end marker (a photo cut short in transit). Decoding the pixels
 * costs more than the rest of an upload together, so it happens once, after the commit, in the
 * photo worker (photo-worker.ts); a photo whose header passes but whose pixels do not decode is
 * flagged on its record there.
 */
import { Transform, type TransformCallback } from 'node:stream';
import sharp from 'sharp';
import { MAX_PHOTO_BYTES } from '../../../common/constants.js';
import { AppError } from '../../app-error.js';

export type PhotoFormat = 'jpeg' | 'png' | 'webp';

export interface CheckedPhoto {
  format: PhotoFormat;
  width: number;
  height: number;
}

export const CONTENT_TYPES: Record<PhotoFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
export const EXTENSIONS: Record<PhotoFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/** The most pixels a photo may have: far above a phone camera's, far below what would exhaust memory when decoded. */
const MAX_PHOTO_PIXELS = 64_000_000;

/** Bytes enough to tell the format by its magic number. */
const MAGIC_BYTES = 12;
/**
 * Bytes kept from the start for the header: the phone's canvas JPEG has its frame header in the
 * first few hundred bytes; a camera's JPEG carries EXIF and colour profile segments first (each
 * at most 64 KB), so this leaves room for several.
 */
const HEAD_BYTES = 512 * 1024;
/**
 * The bytes a JPEG's header is read from first. A phone's canvas JPEG has its whole header in
 * its first few hundred bytes; a camera's segments (EXIF, colour profile) can take more, and
 * then the header is read again from the whole head (HEAD_BYTES).
 */
const FIRST_HEAD_BYTES = 64 * 1024;
/** Some encoders pad after a JPEG's end marker; it is looked for this near the end. */
const TAIL_BYTES = 64;

export function formatOf(bytes: Buffer): PhotoFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/**
 * Passes a photo's bytes through unchanged while it keeps what the checks need (the head and
 * the tail) and fails the stream, so the upload stops, at the first sign it is not a photo:
 * an unknown magic number, or more than 10 MB.
 */
export class PhotoInspector extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  private format: PhotoFormat | null = null;
  sizeBytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.sizeBytes += chunk.length;
    if (this.sizeBytes > MAX_PHOTO_BYTES) return done(new AppError('PHOTO_TOO_LARGE'));
    if (this.headBytes < HEAD_BYTES) {
      const take = chunk.subarray(0, HEAD_BYTES - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
    }
    if (this.format === null && this.headBytes >= MAGIC_BYTES) {
      this.format = formatOf(this.headUpTo(MAGIC_BYTES));
      if (this.format === null) return done(new AppError('PHOTO_WRONG_TYPE'));
    }
    this.tail = chunk.length >= TAIL_BYTES ? chunk.subarray(chunk.length - TAIL_BYTES) : Buffer.concat([this.tail, chunk]).subarray(-TAIL_BYTES);
    done(null, chunk);
  }

  /**
   * The first bytes, up to `bytes`: the first chunk itself when it holds them, so no copy is
   * made. A copy of the whole head (512 KB) for every upload added a quarter to the memory an
   * upload allocates (its 2 MB of socket reads), all of it for V8's collector to track.
   */
  private headUpTo(bytes: number): Buffer {
    const first = this.head[0] ?? Buffer.alloc(0);
    if (first.length >= bytes || this.head.length <= 1) return first.subarray(0, bytes);
    return Buffer.concat(this.head, Math.min(bytes, this.headBytes));
  }

  /** The checks that need the whole stream seen: call once it has ended. */
  async result(): Promise<CheckedPhoto> {
    return checkPhotoHeader((bytes) => this.headUpTo(bytes), this.tail, this.sizeBytes);
  }
}

/** The checks of a photo from its first bytes (up to 512 KB, from `headOf`), its last bytes and its size. */
async function checkPhotoHeader(headOf: (bytes: number) => Buffer, tail: Buffer, sizeBytes: number): Promise<CheckedPhoto> {
  const head = headOf(FIRST_HEAD_BYTES);
  if (sizeBytes === 0) throw new AppError('PHOTO_INVALID');
  if (sizeBytes > MAX_PHOTO_BYTES) throw new AppError('PHOTO_TOO_LARGE');
  const format = formatOf(head);
  if (!format) throw new AppError('PHOTO_WRONG_TYPE');
  // A JPEG cut short in transit still has a readable header; it must end with its EOI marker.
  if (format === 'jpeg' && !hasJpegEnd(tail)) throw new AppError('PHOTO_INVALID', 'Invalid file: File is empty or corrupted (the JPEG is incomplete)');
  let width: number | undefined;
  let height: number | undefined;
  let orientation = 1;
  if (format === 'webp') {
    // libwebp will not read the header of a file it does not have whole; it is a few fixed fields.
    ({ width, height } = webpSize(head) ?? {});
  } else {
    // A JPEG's header is read up to the start of its scan, after every segment (EXIF among
    // them): an answer from the first bytes means they held all of it. A PNG may place its
    // EXIF after the size, so it is read from the whole head.
    const meta = (format === 'jpeg' ? await headerOf(head) : null) ?? (await headerOf(headOf(HEAD_BYTES)));
    if (!meta) throw new AppError('PHOTO_INVALID', 'Invalid file: File is empty or corrupted (its dimensions cannot be read)');
    ({ width, height } = meta);
    orientation = meta.orientation ?? 1;
  }
  if (!width || !height) throw new AppError('PHOTO_INVALID', 'Invalid file: File is empty or corrupted (its dimensions cannot be read)');
  if (width * height > MAX_PHOTO_PIXELS) {
    throw new AppError('PHOTO_INVALID', `Invalid file: the photo has ${width}x${height} pixels, more than a photo can have`);
  }
  // A portrait photo stored sideways with an EXIF turn: the record keeps the upright size.
  const rotated = orientation >= 5;
  return { format, width: rotated ? height : width, height: rotated ? width : height };
}

/** The dimensions and orientation a JPEG's or PNG's header gives (the image is not decoded), or null when these bytes do not hold them. */
async function headerOf(head: Buffer): Promise<{ width: number; height: number; orientation: number | undefined } | null> {
  try {
    const { width, height, orientation } = await sharp(head, { limitInputPixels: MAX_PHOTO_PIXELS }).metadata();
    return width && height ? { width, height, orientation } : null;
  } catch {
    return null;
  }
}

/** A WebP's canvas size from its first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpSize(head: Buffer): { width: number; height: number } | null {
  if (head.length < 30) return null;
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    // The key frame's start code, then 14-bit width and height.
    if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) return null;
    return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (head[20] !== 0x2f) return null;
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  return null;
}

function hasJpegEnd(tail: Buffer): boolean {
  for (let i = tail.length - 2; i >= 0; i--) {
    if (tail[i] === 0xff && tail[i + 1] === 0xd9) return true;
  }
  return false;
}
