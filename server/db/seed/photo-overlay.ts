/**
 * The phone's data overlay, drawn on the server for the demo photos: the same lines in the same
 * band as the camera screen draws (common/rules/photo-overlay.ts), as an SVG for sharp to
 * composite. The letters are outlines from the reports' own fonts (server/pdf/fonts.ts: bold
 * Noto Sans, with the Indian scripts' faces for names such as a Devanagari one) rather than SVG
 * text, so they need no system font, measure exactly for the shared layout, and every machine
 * draws the same overlay whatever fonts it has installed.
 */
import type { Glyph } from 'fontkit';
import { OVERLAY_BAND_COLOR, OVERLAY_TEXT_COLOR, overlayLayout } from '../../../common/rules/photo-overlay.js';
import { baseFontName, fontNamed, runsOf } from '../../pdf/fonts.js';

/** The band to composite at `top`, across the whole width. */
export interface OverlayBand {
  top: number;
  svg: Buffer;
}

/** Bold is the nearest weight the reports carry to the phone's semi-bold (OVERLAY_FONT_WEIGHT). */
const WEIGHT = 'bold';

interface PlacedGlyph {
  /** The face's name and glyph ID: the key of its outline. */
  key: string;
  glyph: Glyph;
  /** Position from the line's start on the baseline, in ems. */
  x: number;
  y: number;
  /** Ems per font unit of the glyph's face. */
  unit: number;
}

interface LaidOutLine {
  glyphs: PlacedGlyph[];
  /** In ems. */
  width: number;
}

// The demo's lines repeat (a division's section line, a technician's line): each is shaped once.
const laidOutLines = new Map<string, LaidOutLine>();

/** The line shaped run by run, each run in the first face of the chain that has its letters. */
function layOut(text: string): LaidOutLine {
  const known = laidOutLines.get(text);
  if (known) return known;
  const glyphs: PlacedGlyph[] = [];
  let pen = 0;
  for (const run of runsOf(text, WEIGHT)) {
    const face = fontNamed(run.font, WEIGHT);
    const unit = 1 / face.unitsPerEm;
    const shaped = face.layout(run.text);
    shaped.glyphs.forEach((glyph, i) => {
      const position = shaped.positions[i];
      glyphs.push({ key: `${run.font}-${glyph.id}`, glyph, x: pen + (position?.xOffset ?? 0) * unit, y: (position?.yOffset ?? 0) * unit, unit });
      pen += (position?.xAdvance ?? 0) * unit;
    });
  }
  const line = { glyphs, width: pen };
  laidOutLines.set(text, line);
  return line;
}

const outlines = new Map<string, string>();
/** A glyph's outline as SVG path data in font units. */
function outline({ key, glyph }: PlacedGlyph): string {
  let d = outlines.get(key);
  if (d === undefined) {
    d = glyph.path.toSVG();
    outlines.set(key, d);
  }
  return d;
}

/** The overlay of `lines` for a `width` x `height` photo. */
export function overlayBand(width: number, height: number, lines: readonly string[]): OverlayBand {
  const laidOut = lines.map(layOut);
  const widestEms = Math.max(0, ...laidOut.map((line) => line.width));
  const layout = overlayLayout(width, height, lines.length, (px) => widestEms * px);
  const px = layout.fontSize;
  // The phone draws with textBaseline 'top', the top of the em box: the Latin face's ascent's share of it.
  const latin = fontNamed(baseFontName(WEIGHT), WEIGHT);
  const baseline = (px * latin.ascent) / (latin.ascent - latin.descent);
  const maxWidth = width - 2 * layout.padding;

  // Each letter's outline once, in font units; every use of it is placed and scaled to pixels.
  const defs = new Map<string, string>();
  const uses = laidOut.flatMap((line, i) => {
    // Like the canvas's fillText maxWidth: a line that still overflows is squeezed, not cut.
    const squeeze = line.width * px > maxWidth ? maxWidth / (line.width * px) : 1;
    const y = layout.padding + i * layout.lineHeight + baseline;
    return line.glyphs.map((placed) => {
      if (!defs.has(placed.key)) defs.set(placed.key, `<path id="${placed.key}" d="${outline(placed)}"/>`);
      const gx = layout.padding + placed.x * px * squeeze;
      const gy = y - placed.y * px;
      const scale = placed.unit * px;
      // Font units point up; the image's y points down.
      return `<use href="#${placed.key}" transform="translate(${gx.toFixed(2)} ${gy.toFixed(2)}) scale(${(scale * squeeze).toFixed(5)} ${(-scale).toFixed(5)})"/>`;
    });
  });
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${layout.bandHeight}">` +
    `<defs>${[...defs.values()].join('')}</defs>` +
    `<rect width="${width}" height="${layout.bandHeight}" fill="${OVERLAY_BAND_COLOR}"/>` +
    `<g fill="${OVERLAY_TEXT_COLOR}">${uses.join('')}</g></svg>`;
  return { top: layout.bandTop, svg: Buffer.from(svg) };
}
