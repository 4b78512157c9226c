/**
 * Checks photo bytes before anything is stored: a known image format by its magic number
 * (never by the file name or the declared type), complete, decodable, at most 10 MB.
 */
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

export function formatOf(bytes: Buffer): PhotoFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

export async function checkPhoto(bytes: Buffer): Promise<CheckedPhoto> {
  if (bytes.length === 0) throw new AppError('PHOTO_INVALID');
  if (bytes.length > MAX_PHOTO_BYTES) throw new AppError('PHOTO_TOO_LARGE');
  const format = formatOf(bytes);
  if (!format) throw new AppError('PHOTO_WRONG_TYPE');
  // A JPEG cut short in transit still has a readable header; it must end with its EOI marker.
  if (format === 'jpeg' && !hasJpegEnd(bytes)) throw new AppError('PHOTO_INVALID', 'Invalid file: File is empty or corrupted (the JPEG is incomplete)');
  try {
    const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: 64_000_000 });
    const meta = await image.metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    // Decoding at a small size reads the whole stream (so damage shows) at a fraction of the cost.
    await image.resize(32, 32, { fit: 'inside' }).raw().toBuffer();
    const rotated = (meta.orientation ?? 1) >= 5;
    return { format, width: rotated ? meta.height : meta.width, height: rotated ? meta.width : meta.height };
  } catch {
    throw new AppError('PHOTO_INVALID');
  }
}

function hasJpegEnd(bytes: Buffer): boolean {
  // Some encoders pad after the EOI marker; look for it near the end.
  const tail = bytes.subarray(Math.max(0, bytes.length - 64));
  for (let i = tail.length - 2; i >= 0; i--) {
    if (tail[i] === 0xff && tail[i + 1] === 0xd9) return true;
  }
  return false;
}
