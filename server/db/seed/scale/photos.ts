/**
 * Field-photo stand-ins for the bench data: a few distinct real JPEGs, the same bytes on every
 * run (seeded, no Math.random), stored in the server's blob store so that thumbnails, image
 * downloads and zips of the generated records work. Sized like the app's own uploads (the
 * camera asks for 1920x1080, JPEG quality 0.8): a few hundred KB each.
 */
import sharp from 'sharp';
import { Random } from '../random.js';
import { DiskBlobStore } from '../../../storage/disk-blob-store.js';

export interface BenchPhoto {
  hash: string;
  sizeBytes: number;
  width: number;
  height: number;
}

export interface BenchPhotoOptions {
  /** The server's DATA_DIR/blobs. */
  blobsDir: string;
  /** How many distinct photos (default 20). */
  count?: number;
  seed: number;
}

const TILE = 256;
/** Noise on top of the gradients: what makes a JPEG of this size weigh like a phone photo. */
const NOISE_AMPLITUDE = 36;
const QUALITY = 80;

/** Raw RGB: soft gradients (different per photo) under a tiled noise pattern. */
function texture(rng: Random, width: number, height: number): Buffer {
  const tile = Buffer.allocUnsafe(TILE * TILE * 3);
  for (let i = 0; i < tile.length; i += 4) {
    const word = Math.floor(rng.next() * 4_294_967_296);
    tile[i] = word & 0xff;
    if (i + 1 < tile.length) tile[i + 1] = (word >>> 8) & 0xff;
    if (i + 2 < tile.length) tile[i + 2] = (word >>> 16) & 0xff;
    if (i + 3 < tile.length) tile[i + 3] = (word >>> 24) & 0xff;
  }
  const pixels = Buffer.allocUnsafe(width * height * 3);
  const room = 255 - NOISE_AMPLITUDE;
  const [ox, oy, oc] = [rng.int(0, width - 1), rng.int(0, height - 1), rng.int(0, 255)];
  // The horizon sits somewhere in the upper half: sky above, ballast and sleepers below.
  const horizon = Math.round(height * rng.float(0.3, 0.5));
  for (let y = 0, i = 0; y < height; y++) {
    const gy = ((y + oy) % height) / height;
    const tileRow = (y % TILE) * TILE * 3;
    const ground = y > horizon;
    for (let x = 0; x < width; x++, i += 3) {
      const gx = ((x + ox) % width) / width;
      const t = tileRow + (x % TILE) * 3;
      const n0 = ((tile[t] ?? 0) * NOISE_AMPLITUDE) >> 8;
      const n1 = ((tile[t + 1] ?? 0) * NOISE_AMPLITUDE) >> 8;
      const n2 = ((tile[t + 2] ?? 0) * NOISE_AMPLITUDE) >> 8;
      if (ground) {
        pixels[i] = room * (0.35 + 0.3 * gx) + n0;
        pixels[i + 1] = room * (0.3 + 0.25 * gy) + n1;
        pixels[i + 2] = room * (0.2 + 0.2 * ((oc / 255 + gx) % 1)) + n2;
      } else {
        pixels[i] = room * (0.45 + 0.2 * gy) + n0;
        pixels[i + 1] = room * (0.6 + 0.2 * gy) + n1;
        pixels[i + 2] = room * (0.8 + 0.2 * gx * gy) + n2;
      }
    }
  }
  return pixels;
}

/**
 * Makes `count` distinct JPEGs (every fifth one portrait, as some technicians hold the phone
 * upright) and puts them in the blob store; the same seed gives the same bytes and hashes.
 */
export async function storeBenchPhotos(options: BenchPhotoOptions): Promise<BenchPhoto[]> {
  const count = options.count ?? 20;
  const store = new DiskBlobStore(options.blobsDir);
  const photos: BenchPhoto[] = [];
  for (let index = 0; index < count; index++) {
    const rng = new Random(options.seed + index * 7919);
    const portrait = index % 5 === 4;
    const [width, height] = portrait ? [1080, 1920] : [1920, 1080];
    const jpeg = await sharp(texture(rng, width, height), { raw: { width, height, channels: 3 } })
      .jpeg({ quality: QUALITY })
      .toBuffer();
    const stored = await store.put(jpeg);
    photos.push({ hash: stored.hash, sizeBytes: stored.sizeBytes, width, height });
  }
  return photos;
}
