/**
 * Real JPEG photos for the demo inspections, one per record: a drawn railway curve with a
 * lubricator beside the outer rail, and the data overlay the phone burns in at capture, drawn
 * from that record's own fields (./photo-overlay.ts). They are real images (well above the
 * spec's 6000-byte placeholder limit), so image grids, downloads and PDF reports behave as with
 * field photos, and the overlay a report prints beside a record names that record.
 *
 * Drawing the scene is most of the cost, so each division's scene is drawn once and every
 * record's overlay is composited onto its division's scene before the JPEG is encoded.
 */
import sharp from 'sharp';
import { JPEG_QUALITY } from '../../../common/constants.js';
import { OVERLAY_BAND_COLOR, OVERLAY_TEXT_COLOR } from '../../../common/rules/photo-overlay.js';
import { overlayLines } from '../../../common/rules/photo-overlay.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { clockTime } from './calendar.js';
import type { DemoInspection, InspectionPhoto } from './inspections.js';
import { loadFontkit } from '../../pdf/fonts.js';
import { overlayBand, OverlayShapes, type PlacedMask } from './photo-overlay.js';
import { Random, SEEDS } from './random.js';

const WIDTH = 1280;
const HEIGHT = 720;
/** Photos drawn and stored at once (storeInspectionPhotos); blob writes wait on the disk, so more than the thread pool's four. */
const PHOTOS_AT_ONCE = 8;
/** The phone's own encoding: quality 0.8. */
const QUALITY = Math.round(JPEG_QUALITY * 100);
/** The maker's plate in the scene only; without any of these fonts it is left blank. */
const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";

/** A division's scene, decoded once: the pixels every record of the division is drawn on. */
export interface DivisionScene {
  pixels: Buffer;
  raw: { width: number; height: number; channels: 3 };
}

/**
 * The size of the year's photos before the demo's window (./history.ts): a quarter of the
 * pixels, so the first start draws them in a fraction of the time. The window's, which the
 * views and reports open most, are the phone's full size.
 */
export const REDUCED_PHOTO = { width: 640, height: 360 } as const;

export async function drawDivisionScene(division: string, size: 'full' | 'reduced' = 'full'): Promise<DivisionScene> {
  let image = sharp(Buffer.from(sceneSvg(division))).removeAlpha();
  if (size === 'reduced') image = sharp(await image.raw().toBuffer(), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).resize(REDUCED_PHOTO);
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, raw: { width: info.width, height: info.height, channels: 3 } };
}

/**
 * The phone's clock at capture, as its overlay prints it. The record keeps the visit's date
 * and the minute of capture; the seconds, which no field holds, come from the record ID so
 * they stay the same on every run.
 */
export function captureTimestamp(inspection: DemoInspection): string {
  const seconds = seedOf(inspection.fields.recordId) % 60;
  return `${inspection.fields.date} ${clockTime(inspection.capturedAtMinutes)}:${String(seconds).padStart(2, '0')}`;
}

/** The overlay the phone would have burned into this record's photo. */
export function demoOverlayLines(inspection: DemoInspection): string[] {
  const f = inspection.fields;
  return overlayLines({
    takenAt: captureTimestamp(inspection),
    type: f.type,
    divisionRailway: f.divisionRailway,
    section: f.section,
    curveNumber: f.curveNumber,
    line: f.line,
    cofValue: f.cofValue ?? '',
    technicianName: f.technicianName,
    technicianId: f.technicianId,
    // Demo records carry no position (their latitude and longitude stay empty), so the overlay
    // says so, as the phone's does without a fix.
    position: null,
  });
}

/** A letter's coverage, one byte a pixel. */
type Mask = Promise<Buffer>;

/** Each letter's coverage at a size and offset, drawn once for all the photos that print it. */
export class LetterMasks {
  private readonly drawn = new Map<string, Mask>();
  /** The lines shaped for these letters, kept as long as they are. */
  readonly shapes = new OverlayShapes();

  of(mask: PlacedMask): Mask {
    let alpha = this.drawn.get(mask.key);
    if (!alpha) {
      alpha = sharp(mask.svg()).ensureAlpha().extractChannel(3).raw().toBuffer();
      this.drawn.set(mask.key, alpha);
    }
    return alpha;
  }
}

const BAND = (() => {
  const [r, g, b, a] = (OVERLAY_BAND_COLOR.match(/[\d.]+/g) ?? []).map(Number);
  return { rgb: [r ?? 0, g ?? 0, b ?? 0], alpha: a ?? 1 };
})();
const TEXT = [1, 3, 5].map((i) => parseInt(OVERLAY_TEXT_COLOR.slice(i, i + 2), 16));

// The scene under its band, per band: the same for every photo of the scene.
const bandedScenes = new WeakMap<DivisionScene, Map<string, Buffer>>();

function bandedScene(scene: DivisionScene, top: number, height: number): Buffer {
  let banded = bandedScenes.get(scene);
  if (!banded) {
    banded = new Map();
    bandedScenes.set(scene, banded);
  }
  const key = `${top} ${height}`;
  let pixels = banded.get(key);
  if (!pixels) {
    pixels = Buffer.from(scene.pixels);
    for (let i = top * scene.raw.width * 3; i < (top + height) * scene.raw.width * 3; i++) {
      pixels[i] = Math.round((pixels[i] as number) * (1 - BAND.alpha) + (BAND.rgb[i % 3] as number) * BAND.alpha);
    }
    banded.set(key, pixels);
  }
  return pixels;
}

/** The JPEG of `lines` burned into `scene`: the band blended over it, then each letter. */
export async function renderDemoPhoto(scene: DivisionScene, lines: readonly string[], letters = new LetterMasks()): Promise<Buffer> {
  const { width, height } = scene.raw;
  await loadFontkit();
  const band = overlayBand(width, height, lines, letters.shapes);
  const alphas = await Promise.all(band.masks.map((mask) => letters.of(mask)));
  const pixels = Buffer.from(bandedScene(scene, band.top, band.height));
  band.masks.forEach((mask, m) => {
    const alpha = alphas[m] as Buffer;
    for (let row = 0; row < mask.height; row++) {
      const y = mask.y + row;
      if (y < 0 || y >= height) continue;
      for (let col = 0; col < mask.width; col++) {
        const x = mask.x + col;
        const a = alpha[row * mask.width + col] as number;
        if (a === 0 || x < 0 || x >= width) continue;
        for (let c = 0, at = (y * width + x) * 3; c < 3; c++, at++) {
          pixels[at] = ((pixels[at] as number) * (255 - a) + (TEXT[c] as number) * a + 127) / 255;
        }
      }
    }
  });
  return (
    sharp(pixels, { raw: scene.raw })
      // Without the second pass that optimises the Huffman tables: it took two thirds of the
      // encoding time for 4% fewer bytes, and the first start waits for every demo photo.
      .jpeg({ quality: QUALITY, optimiseCoding: false })
      .toBuffer()
  );
}

/** The scene a record's photo is drawn on: its division's, at the record's photo size. */
export function sceneKeyOf(inspection: DemoInspection): { division: string; size: 'full' | 'reduced' } {
  return { division: inspection.fields.divisionRailway, size: inspection.reducedPhoto ? 'reduced' : 'full' };
}

/** Renders and stores every inspection's own photo; returns each stored photo by record ID. */
export async function storeInspectionPhotos(
  blobs: BlobStore,
  inspections: readonly DemoInspection[],
): Promise<Map<string, InspectionPhoto>> {
  const scenes = new Map<string, Promise<DivisionScene>>();
  const sceneOf = (inspection: DemoInspection) => {
    const { division, size } = sceneKeyOf(inspection);
    let scene = scenes.get(`${division} ${size}`);
    if (!scene) {
      scene = drawDivisionScene(division, size);
      scenes.set(`${division} ${size}`, scene);
    }
    return scene;
  };
  const letters = new LetterMasks();
  // A few at a time: each holds its own copy of the scene's pixels until its JPEG is encoded,
  // and sharp's encoding runs on libuv's thread pool, which has four threads by default.
  const stored = new Map<string, InspectionPhoto>();
  let next = 0;
  const drawNext = async (): Promise<void> => {
    for (let inspection = inspections[next++]; inspection; inspection = inspections[next++]) {
      const scene = await sceneOf(inspection);
      const blob = await blobs.put(await renderDemoPhoto(scene, demoOverlayLines(inspection), letters));
      stored.set(inspection.fields.recordId, { hash: blob.hash, sizeBytes: blob.sizeBytes, width: scene.raw.width, height: scene.raw.height });
    }
  };
  await Promise.all(Array.from({ length: PHOTOS_AT_ONCE }, drawNext));
  return stored;
}

interface Pt {
  x: number;
  y: number;
}

interface Palette {
  skyTop: string;
  skyBottom: string;
  far: string;
  ground: string;
  groundDark: string;
  cabinet: string;
}

/** Landscape by division: Malwa plateau, Punjab fields, Gujarat plains, Delhi suburbs, Satpura forest. */
const PALETTES: Record<string, Omit<Palette, 'skyTop' | 'skyBottom'>> = {
  'RTM/WR': { far: '#7d8a6a', ground: '#8a7f52', groundDark: '#6d6440', cabinet: '#2d5d8a' },
  'FZR/NR': { far: '#6f8f5a', ground: '#5f8a3a', groundDark: '#4a6e2c', cabinet: '#3b6e47' },
  'BRC/WR': { far: '#8c9372', ground: '#9a8a5a', groundDark: '#7b6d44', cabinet: '#2d5d8a' },
  'NDLS/NR': { far: '#9a9a92', ground: '#8d8470', groundDark: '#6f6756', cabinet: '#3b6e47' },
  'JBP/WCR': { far: '#4d6b45', ground: '#5a7a3e', groundDark: '#435e2d', cabinet: '#7a4b2a' },
};
const DEFAULT_PALETTE = { far: '#7d8a6a', ground: '#8a7f52', groundDark: '#6d6440', cabinet: '#2d5d8a' };

/** A clear late-morning sky: one scene serves visits at every hour. */
const SKY: Pick<Palette, 'skyTop' | 'skyBottom'> = { skyTop: '#4f8fd6', skyBottom: '#cfe3f3' };

// The track: a quadratic Bézier from below the frame to the horizon, bending right.
const P0: Pt = { x: 700, y: 760 };
const P1: Pt = { x: 700, y: 430 };
const P2: Pt = { x: 1210, y: 318 };
const HORIZON = 318;

function along(t: number): Pt {
  const a = (1 - t) * (1 - t);
  const b = 2 * (1 - t) * t;
  const c = t * t;
  return { x: a * P0.x + b * P1.x + c * P2.x, y: a * P0.y + b * P1.y + c * P2.y };
}

function tangent(t: number): Pt {
  return {
    x: 2 * (1 - t) * (P1.x - P0.x) + 2 * t * (P2.x - P1.x),
    y: 2 * (1 - t) * (P1.y - P0.y) + 2 * t * (P2.y - P1.y),
  };
}

/** Half the track gauge on screen: the perspective scale at t. */
function halfGauge(t: number): number {
  return 250 * Math.pow(1 - t, 1.35) + 4;
}

/** The point `s` half-gauges to the right of the track centre (negative: left). */
function offset(t: number, s: number): Pt {
  const p = along(t);
  const d = tangent(t);
  const len = Math.hypot(d.x, d.y);
  const w = halfGauge(t) * s;
  return { x: p.x + (-d.y / len) * w, y: p.y + (d.x / len) * w };
}

const fmt = (p: Pt): string => `${p.x.toFixed(1)},${p.y.toFixed(1)}`;

/** A band along the track between two lateral offsets. */
function strip(s1: number, s2: number, t0 = 0, t1 = 1, steps = 48): string {
  const left: string[] = [];
  const right: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = t0 + ((t1 - t0) * i) / steps;
    left.push(fmt(offset(t, s1)));
    right.push(fmt(offset(t, s2)));
  }
  return [...left, ...right.reverse()].join(' ');
}

function seedOf(key: string): number {
  let h = SEEDS.photos;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16_777_619) >>> 0;
  return h;
}

function sceneSvg(division: string): string {
  const rng = new Random(seedOf(division));
  const palette: Palette = { ...(PALETTES[division] ?? DEFAULT_PALETTE), ...SKY };
  // Half the divisions' curves bend left: the same drawing, mirrored.
  const mirrored = rng.chance(0.5);
  const scene = [
    backdrop(rng, palette, division === 'NDLS/NR'),
    trackBed(rng),
    sleepers(),
    rails(),
    overheadLine(),
    lubricator(palette),
  ].join('');
  const transform = mirrored ? ` transform="translate(${WIDTH},0) scale(-1,1)"` : '';
  // The maker's plate is drawn outside the mirrored group so its lettering never reads backwards.
  const box = cabinetBox();
  const plateX = box.x + box.boxW * 0.27;
  const plate = `<text x="${(mirrored ? WIDTH - plateX : plateX).toFixed(1)}" y="${(box.y + box.boxH * 0.23).toFixed(1)}" font-family="${FONT}" font-size="${(box.boxH * 0.09).toFixed(1)}" font-weight="bold" text-anchor="middle" fill="#1d2731">HKM</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${palette.skyTop}"/><stop offset="1" stop-color="${palette.skyBottom}"/></linearGradient>` +
    `<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="${palette.groundDark}"/><stop offset="1" stop-color="${palette.ground}"/></linearGradient></defs>` +
    `<g${transform}>${scene}</g>${plate}</svg>`
  );
}

function backdrop(rng: Random, palette: Palette, urban: boolean): string {
  const parts = [
    `<rect width="${WIDTH}" height="${HORIZON + 2}" fill="url(#sky)"/>`,
    `<rect y="${HORIZON}" width="${WIDTH}" height="${HEIGHT - HORIZON}" fill="url(#ground)"/>`,
  ];
  if (urban) {
    for (let x = -20; x < WIDTH; x += rng.int(30, 80)) {
      const h = rng.int(18, 70);
      const shade = rng.pick(['#a29e96', '#b5ada0', '#8f8b84', '#c2b8a8']);
      parts.push(`<rect x="${x}" y="${HORIZON - h}" width="${rng.int(28, 75)}" height="${h}" fill="${shade}"/>`);
    }
  } else {
    const ridge: string[] = [`0,${HORIZON}`];
    for (let x = 0; x <= WIDTH; x += 40) ridge.push(`${x},${HORIZON - rng.int(14, 60)}`);
    ridge.push(`${WIDTH},${HORIZON}`);
    parts.push(`<polygon points="${ridge.join(' ')}" fill="${palette.far}" opacity="0.75"/>`);
  }
  // Tree line and scrub: small near the horizon, larger towards the camera.
  for (let i = 0; i < 140; i++) {
    const x = rng.float(0, WIDTH);
    const depth = Math.pow(rng.next(), 2.2);
    const y = HORIZON + depth * (HEIGHT - HORIZON);
    const r = 4 + depth * 38 * rng.float(0.6, 1.2);
    const green = rng.pick(['#3f5f2c', '#4d6e33', '#5b7a3a', '#37522a', '#6b7f45']);
    parts.push(`<ellipse cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" rx="${(r * 1.4).toFixed(1)}" ry="${r.toFixed(1)}" fill="${green}"/>`);
  }
  // Grass tufts give the ground texture, as in any outdoor photo.
  const tufts: string[] = [];
  for (let i = 0; i < 900; i++) {
    const x = rng.float(0, WIDTH);
    const depth = rng.next();
    const y = HORIZON + 6 + depth * (HEIGHT - HORIZON);
    const h = 2 + depth * 14;
    tufts.push(`M${x.toFixed(1)} ${y.toFixed(1)}l${rng.float(-3, 3).toFixed(1)} ${(-h).toFixed(1)}`);
  }
  parts.push(`<path d="${tufts.join('')}" stroke="${palette.groundDark}" stroke-width="1.6" fill="none"/>`);
  return parts.join('');
}

function trackBed(rng: Random): string {
  const parts = [
    `<polygon points="${strip(-2.25, 2.25)}" fill="#7a7468"/>`,
    `<polygon points="${strip(-1.7, 1.7)}" fill="#8e887c"/>`,
  ];
  const stones = ['#6e6a63', '#8f8a80', '#a39d92', '#5b5852', '#b3ada1', '#7c766c'];
  for (let i = 0; i < 1400; i++) {
    const t = Math.pow(rng.next(), 1.8) * 0.97;
    const p = offset(t, rng.float(-2.1, 2.1));
    const r = Math.max(0.7, halfGauge(t) * rng.float(0.015, 0.04));
    parts.push(
      `<ellipse cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" rx="${(r * 1.3).toFixed(1)}" ry="${r.toFixed(1)}" fill="${rng.pick(stones)}"/>`,
    );
  }
  return parts.join('');
}

/** Concrete sleepers, spaced by the perspective scale so they bunch up towards the horizon. */
function sleepers(): string {
  const parts: string[] = [];
  for (let t = 0.005; t < 0.985; ) {
    const w = halfGauge(t);
    const d = tangent(t);
    const len = Math.hypot(d.x, d.y);
    const half = (w * 0.08) / len;
    const corners = [offset(t - half, -1.35), offset(t - half, 1.35), offset(t + half, 1.35), offset(t + half, -1.35)];
    parts.push(`<polygon points="${corners.map(fmt).join(' ')}" fill="#b9b3a7" stroke="#6f695f" stroke-width="${Math.max(0.4, w * 0.01).toFixed(2)}"/>`);
    t += (w * 0.36) / len;
  }
  return parts.join('');
}

function rails(): string {
  return [
    // Rusty web and foot, then the polished head; the outer (left) rail's gauge face is greased dark.
    `<polygon points="${strip(-1.13, -0.97)}" fill="#5b4636"/>`,
    `<polygon points="${strip(0.97, 1.13)}" fill="#5b4636"/>`,
    `<polygon points="${strip(-1.08, -1.0)}" fill="#d3d6d8"/>`,
    `<polygon points="${strip(1.0, 1.08)}" fill="#d3d6d8"/>`,
    `<polygon points="${strip(-1.0, -0.975)}" fill="#2f2a24"/>`,
  ].join('');
}

/** OHE masts on the inside of the curve, each cantilever holding the contact wire over the track. */
function overheadLine(): string {
  const parts: string[] = [];
  const wire: string[] = [];
  // The drawing's t is not depth, so the masts (about 60 m apart) are placed by eye. The
  // wire hangs at a fixed height over the track centre; at t = 0.2 it leaves the frame.
  for (const t of [0.2, 0.34, 0.55, 0.69, 0.79, 0.865, 0.92, 0.955, 0.98]) {
    const w = halfGauge(t);
    const centre = along(t);
    const holds = { x: centre.x, y: centre.y - w * 4 };
    wire.push(fmt(holds));
    if (t < 0.3) continue;
    const base = offset(t, 3.1);
    const top = { x: base.x, y: holds.y - w * 0.4 };
    parts.push(
      `<line x1="${base.x.toFixed(1)}" y1="${base.y.toFixed(1)}" x2="${top.x.toFixed(1)}" y2="${top.y.toFixed(1)}" stroke="#6b6f73" stroke-width="${Math.max(1, w * 0.12).toFixed(1)}"/>`,
      `<line x1="${top.x.toFixed(1)}" y1="${holds.y.toFixed(1)}" x2="${holds.x.toFixed(1)}" y2="${holds.y.toFixed(1)}" stroke="#7b7f83" stroke-width="${Math.max(0.8, w * 0.05).toFixed(1)}"/>`,
    );
  }
  parts.push(`<polyline points="${wire.join(' ')}" fill="none" stroke="#2b2b2b" stroke-width="2"/>`);
  return parts.join('');
}

// Far enough up the track that the applicator on the rail shows above the overlay band.
const LUBRICATOR_T = 0.3;

function cabinetBox(): { x: number; y: number; boxW: number; boxH: number; foot: Pt } {
  const w = halfGauge(LUBRICATOR_T);
  const foot = offset(LUBRICATOR_T, -2.75);
  const boxW = w * 0.8;
  const boxH = w * 1.0;
  return { x: foot.x - boxW / 2, y: foot.y - boxH, boxW, boxH, foot };
}

/** The lubricator: cabinet on its foundation, solar panel, hose to the applicator bar on the outer rail. */
function lubricator(palette: Palette): string {
  const t = LUBRICATOR_T;
  const w = halfGauge(t);
  const { x, y, boxW, boxH, foot } = cabinetBox();
  const rail = offset(t, -1.1);
  return [
    `<rect x="${(x - 12).toFixed(1)}" y="${(foot.y - 8).toFixed(1)}" width="${(boxW + 24).toFixed(1)}" height="26" fill="#a9a49a"/>`,
    `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${boxW.toFixed(1)}" height="${boxH.toFixed(1)}" rx="4" fill="${palette.cabinet}" stroke="#1d2731" stroke-width="3"/>`,
    `<line x1="${(x + boxW / 2).toFixed(1)}" y1="${(y + 8).toFixed(1)}" x2="${(x + boxW / 2).toFixed(1)}" y2="${(foot.y - 8).toFixed(1)}" stroke="#1d2731" stroke-width="2"/>`,
    `<rect x="${(x + boxW * 0.12).toFixed(1)}" y="${(y + boxH * 0.12).toFixed(1)}" width="${(boxW * 0.3).toFixed(1)}" height="${(boxH * 0.14).toFixed(1)}" fill="#f4f1e8"/>`,
    `<line x1="${(x + boxW).toFixed(1)}" y1="${(y + 10).toFixed(1)}" x2="${(x + boxW).toFixed(1)}" y2="${(y - boxH * 0.9).toFixed(1)}" stroke="#585c60" stroke-width="6"/>`,
    `<polygon points="${fmt({ x: x + boxW - boxW * 0.6, y: y - boxH * 0.75 })} ${fmt({ x: x + boxW + boxW * 0.6, y: y - boxH * 0.95 })} ${fmt({ x: x + boxW + boxW * 0.5, y: y - boxH * 0.55 })} ${fmt({ x: x + boxW - boxW * 0.7, y: y - boxH * 0.38 })}" fill="#1f2d52" stroke="#8aa4cf" stroke-width="2"/>`,
    `<path d="M${(x + boxW).toFixed(1)} ${(foot.y - 20).toFixed(1)} Q${((x + boxW + rail.x) / 2).toFixed(1)} ${(foot.y + 30).toFixed(1)} ${rail.x.toFixed(1)} ${rail.y.toFixed(1)}" stroke="#151515" stroke-width="${(w * 0.05).toFixed(1)}" fill="none"/>`,
    `<polygon points="${strip(-0.985, -0.9, t - 0.04, t + 0.04, 8)}" fill="#1c1c1c"/>`,
  ].join('');
}
