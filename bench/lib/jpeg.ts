/**
 * Test photos for upload scenarios: real JPEGs (sharp) of a chosen size, each different, with
 * a comment segment holding a fixed-length text that can be overwritten in place per request,
 * so that every upload is new bytes (the blob store is content-addressed: the same bytes again
 * would skip the disk write).
 */
import { randomFillSync, randomInt } from 'node:crypto';
import sharp from 'sharp';

export interface PhotoPoolOptions {
  count: number;
  width: number;
  height: number;
  /** JPEG quality, 1-100. */
  quality: number;
  /** The size to aim at, in bytes; the noise is tuned until the first photo lands within 3 %. */
  targetBytes: number;
}

export interface PhotoPool {
  photos: Buffer[];
  /** The noise amplitude (0-255) the calibration settled on. */
  amplitude: number;
}

/** Raw RGB: soft colour gradients (different for every call) under per-pixel noise. */
function texture(width: number, height: number, amplitude: number): Buffer {
  const pixels = randomFillSync(Buffer.allocUnsafe(width * height * 3));
  const room = 255 - amplitude;
  const [ox, oy, oc] = [randomInt(width), randomInt(height), randomInt(256)];
  for (let y = 0, i = 0; y < height; y++) {
    const gy = ((y + oy) % height) / height;
    for (let x = 0; x < width; x++, i += 3) {
      const gx = ((x + ox) % width) / width;
      // pixels[i..] holds random bytes: scale them to the noise amplitude over the gradient.
      pixels[i] = room * gx + (((pixels[i] ?? 0) * amplitude) >> 8);
      pixels[i + 1] = room * gy + (((pixels[i + 1] ?? 0) * amplitude) >> 8);
      pixels[i + 2] = room * (((oc + 255 * (gx + gy)) % 256) / 256) + (((pixels[i + 2] ?? 0) * amplitude) >> 8);
    }
  }
  return pixels;
}

function encode(width: number, height: number, quality: number, amplitude: number): Promise<Buffer> {
  return sharp(texture(width, height, amplitude), { raw: { width, height, channels: 3 } })
    .jpeg({ quality, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

/** Distinct JPEGs near the target size: the noise amplitude is found by bisection on one photo. */
export async function makePhotoPool(options: PhotoPoolOptions): Promise<PhotoPool> {
  const { width, height, quality, targetBytes } = options;
  let [low, high] = [0, 255];
  let amplitude = 96;
  for (let step = 0; step < 8; step++) {
    const size = (await encode(width, height, quality, amplitude)).length;
    if (Math.abs(size - targetBytes) <= targetBytes * 0.03) break;
    if (size < targetBytes) low = amplitude;
    else high = amplitude;
    const next = Math.round((low + high) / 2);
    if (next === amplitude) break;
    amplitude = next;
  }
  const photos: Buffer[] = [];
  for (let i = 0; i < options.count; i++) photos.push(await encode(width, height, quality, amplitude));
  return { photos, amplitude };
}

/**
 * The JPEG with a comment (COM) segment holding `text`, placed after the SOI marker and the
 * JFIF header when there is one. Decoders skip comments; overwrite `text` with another of the
 * same length to make the bytes (and the sha256) different without re-encoding.
 */
export function withComment(jpeg: Buffer, text: string): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG: no SOI marker');
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + jpeg.readUInt16BE(4);
  const payload = Buffer.from(text, 'latin1');
  if (payload.length > 65_533) throw new Error('JPEG comment too long');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, at), header, payload, jpeg.subarray(at)]);
}
