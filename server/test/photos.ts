import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** A real JPEG with enough texture to be a believable photo (well over 6000 bytes). */
export async function makeJpeg(width = 1920, height = 1080, seed = 1): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  let state = seed;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    // Gradients plus noise: compresses like a photo, not like a flat test card.
    pixels[i] = ((i / channels) % width) / 8 + (state % 64);
  }
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 80 }).toBuffer();
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A multipart upload body as the phone sends it: metadata JSON first, then the photo. */
export function uploadForm(metadata: unknown, photo?: Buffer, fileName = 'inspection_image.jpg', type = 'image/jpeg'): FormData {
  const form = new FormData();
  form.append('metadata', typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  if (photo) form.append('file', new Blob([new Uint8Array(photo)], { type }), fileName);
  return form;
}
