import { createHash, randomUUID } from 'node:crypto';
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

/**
 * `count` distinct photo-like JPEGs of one size: one textured base (as makeJpeg), each with its
 * own noisy band and a first rows' shade, so every photo has its own bytes and a realistic size.
 * Made eight at a time (sharp encodes on its own threads).
 */
export async function makeDistinctPhotos(count: number, width: number, height: number, seed = 11): Promise<Buffer[]> {
  const channels = 3;
  const base = Buffer.alloc(width * height * channels);
  let state = seed;
  for (let i = 0; i < base.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    base[i] = ((i / channels) % width) / 8 + (state % 64);
  }
  const bandRows = Math.min(48, height);
  const photos: Buffer[] = [];
  for (let start = 0; start < count; start += 8) {
    const batch = Array.from({ length: Math.min(8, count - start) }, (_, k) => {
      const n = start + k;
      const pixels = Buffer.from(base);
      const bandStart = ((n * 37) % Math.max(1, height - bandRows)) * width * channels;
      let noise = n + 1;
      for (let i = bandStart; i < bandStart + bandRows * width * channels; i++) {
        noise = (noise * 1103515245 + 12345) & 0x7fffffff;
        pixels[i] = noise & 0xff;
      }
      pixels.fill(n & 0xff, 0, width * channels * Math.min(4, height));
      return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 80 }).toBuffer();
    });
    photos.push(...(await Promise.all(batch)));
  }
  return photos;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A multipart upload body as the phone sends it: metadata JSON first, then the photo. */
export function uploadForm(metadata: unknown, photo?: Buffer, fileName = 'inspection_image.jpg', type = 'image/jpeg'): FormData {
  const form = new FormData();
  form.append('metadata', typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  if (photo) form.append('file', new Blob([new Uint8Array(photo)], { type }), fileName);
  return form;
}

/** The metadata of a Service visit as the phone sends it (a fresh clientSubmissionId each time); overrides change any field. */
export function serviceVisitMetadata(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    date: '2026-11-20',
    type: 'Service',
    divisionRailway: 'RTM/WR',
    section: 'RTM-NAD',
    curveNumber: '12',
    line: 'Up',
    station1: 'Ratlam Jn',
    station2: 'Bangrod',
    railwayEngineer: 'SSE/P.Way/NAD',
    serviceUpdate: 'part-broken',
    partCategory: 'Pump Assembly',
    partItemName: 'Gear pump',
    greaseDepth: '4.5',
    isMachineWorking: 'no',
    clientSubmissionId: randomUUID(),
    ...overrides,
  };
}
