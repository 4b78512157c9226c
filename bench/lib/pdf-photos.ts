/**
 * Distinct phone-sized JPEGs of about a target size (pdf-report's ~300 KB, upload's ~2 MiB), each a window of one seeded
 * texture: no two share pixels, so each costs a full decode; a coarse grain survives the 1200 px print copy's downscale, so
 * copies weigh like real photos', not a blur's.
 */
import sharp from 'sharp';
import { Random } from '../../server/db/seed/random.js';

const TEXTURE = 2400;
const LONG = 1920;
const SHORT = 1080;
const GRAIN = 3;

function texture(seed: number, coarse: number): Buffer {
  const fine = Math.round(coarse * 0.4);
  const rng = new Random(seed);
  const word = () => Math.floor(rng.next() * 4_294_967_296);
  const noise = (bytes: number) => {
    const out = Buffer.allocUnsafe(bytes);
    for (let i = 0; i + 3 < bytes; i += 4) out.writeUInt32LE(word(), i);
    for (let i = bytes - (bytes % 4); i < bytes; i++) out[i] = word() & 0xff;
    return out;
  };
  const cells = Math.ceil(TEXTURE / GRAIN);
  const grain = noise(cells * cells * 3);
  const pixels = noise(TEXTURE * TEXTURE * 3);
  const room = 255 - fine - coarse;
  const horizon = Math.round(TEXTURE * 0.42);
  for (let y = 0, i = 0; y < TEXTURE; y++) {
    const gy = y / TEXTURE;
    const row = Math.floor(y / GRAIN) * cells * 3;
    const ground = y > horizon;
    for (let x = 0; x < TEXTURE; x++, i += 3) {
      const gx = x / TEXTURE;
      const g = row + Math.floor(x / GRAIN) * 3;
      const n0 = (((pixels[i] ?? 0) * fine) >> 8) + (((grain[g] ?? 0) * coarse) >> 8);
      const n1 = (((pixels[i + 1] ?? 0) * fine) >> 8) + (((grain[g + 1] ?? 0) * coarse) >> 8);
      const n2 = (((pixels[i + 2] ?? 0) * fine) >> 8) + (((grain[g + 2] ?? 0) * coarse) >> 8);
      pixels[i] = room * (ground ? 0.35 + 0.3 * gx : 0.45 + 0.2 * gy) + n0;
      pixels[i + 1] = room * (ground ? 0.3 + 0.25 * gy : 0.6 + 0.2 * gy) + n1;
      pixels[i + 2] = room * (ground ? 0.2 + 0.2 * gx * gy : 0.8 + 0.2 * gx * gy) + n2;
    }
  }
  return pixels;
}

export interface PhotoOptions {
  seed: number;
  targetBytes?: number;
  quality?: number;
  /** Every fifth photo upright, as phones take them (pdf-report); false: all 1920x1080 (upload). */
  portraits?: boolean;
  chromaSubsampling?: '4:2:0' | '4:4:4';
}

function encode(raw: Buffer, index: number, { quality = 80, portraits = true, chromaSubsampling = '4:2:0' }: PhotoOptions): Promise<{ bytes: Buffer }> {
  const rng = new Random(0x9e37_79b9 ^ (index * 2_654_435_761));
  const portrait = portraits && index % 5 === 4;
  const [width, height] = portrait ? [SHORT, LONG] : [LONG, SHORT];
  const left = rng.int(0, TEXTURE - width);
  const top = rng.int(0, TEXTURE - height);
  // A colour cast of its own (light, camera, time of day): cheap, and no two photos alike.
  const gains: [number, number, number] = [rng.float(0.85, 1.05), rng.float(0.85, 1.05), rng.float(0.85, 1.05)];
  const offsets: [number, number, number] = [rng.int(-8, 8), rng.int(-8, 8), rng.int(-8, 8)];
  return sharp(raw, { raw: { width: TEXTURE, height: TEXTURE, channels: 3 } })
    .extract({ left, top, width, height })
    .linear(gains, offsets)
    .jpeg({ quality, chromaSubsampling })
    .toBuffer()
    .then((bytes) => ({ bytes }));
}

export async function fieldPhotoMaker(options: PhotoOptions): Promise<{ make: (index: number) => Promise<{ bytes: Buffer }>; amplitude: number }> {
  const target = options.targetBytes ?? 300 * 1024;
  let [low, high] = [4, 120];
  let amplitude = 32;
  let raw = texture(options.seed, amplitude);
  for (let step = 0; step < 7; step++) {
    const size = (await encode(raw, 0, options)).bytes.length;
    if (Math.abs(size - target) <= target * 0.04) break;
    if (size < target) low = amplitude;
    else high = amplitude;
    const next = Math.round((low + high) / 2);
    if (next === amplitude) break;
    amplitude = next;
    raw = texture(options.seed, amplitude);
  }
  const chosen = raw;
  return { make: (index) => encode(chosen, index, options), amplitude };
}
