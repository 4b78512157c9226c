/**
 * The phone's data overlay, drawn on the server for the demo photos: the same lines in the same
 * band as the camera screen draws (common/rules/photo-overlay.ts), as letters placed on the band,
 * each letter's coverage drawn once (as an SVG, by sharp) and blended into every photo that
 * prints it (./photos.ts): drawing each photo's whole band as an SVG cost more than the rest of
 * the photo, and the first start draws a photo for every demo record. The letters are outlines
 * from the reports' own fonts (server/pdf/fonts.ts: bold Noto Sans, with the Indian scripts'
 * faces for names such as a Devanagari one) rather than SVG text, so they need no system font,
 * measure exactly for the shared layout, and every machine draws the same overlay whatever fonts
 * it has installed.
 */
import type { Glyph } from 'fontkit';
import { OVERLAY_TEXT_COLOR, overlayLayout } from '../../../common/rules/photo-overlay.js';
import { baseFontName, fontNamed, runsOf } from '../../pdf/fonts.js';

/**
 * One letter of the overlay: its coverage mask goes with its box's top left corner at (x, y).
 * Positions are kept to a quarter pixel, so a letter's mask at a size and a quarter-pixel offset
 * is one drawing (`key`) that every photo printing it shares.
 */
export interface PlacedMask {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The letter alone, white on a clear ground, `width` x `height`. */
  svg: () => Buffer;
}

/** The overlay: the dark band across the photo from `top`, and its letters. */
export interface OverlayBand {
  top: number;
  height: number;
  masks: PlacedMask[];
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

/**
 * What one seeding shapes once and reuses: the demo's lines repeat (a division's section line,
 * a technician's line), and so do their letters' outlines. Kept for one seeding, not for the
 * life of the server: the shaped lines hold fontkit's glyphs, megabytes that every major GC
 * would otherwise mark for nothing once the demo photos are drawn.
 */
export class OverlayShapes {
  private readonly lines = new Map<string, LaidOutLine>();
  private readonly outlines = new Map<string, string>();

  /** The line shaped run by run, each run in the first face of the chain that has its letters. */
  layOut(text: string): LaidOutLine {
    const known = this.lines.get(text);
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
    this.lines.set(text, line);
    return line;
  }

  /** A glyph's outline as SVG path data in font units. */
  outline({ key, glyph }: PlacedGlyph): string {
    let d = this.outlines.get(key);
    if (d === undefined) {
      d = glyph.path.toSVG();
      this.outlines.set(key, d);
    }
    return d;
  }
}

const QUARTER = (v: number) => Math.round(v * 4) / 4;

/** The overlay of `lines` for a `width` x `height` photo. The fonts must be loaded (loadFontkit). */
export function overlayBand(width: number, height: number, lines: readonly string[], shapes: OverlayShapes): OverlayBand {
  const laidOut = lines.map((line) => shapes.layOut(line));
  const widestEms = Math.max(0, ...laidOut.map((line) => line.width));
  const layout = overlayLayout(width, height, lines.length, (px) => widestEms * px);
  const px = layout.fontSize;
  // The phone draws with textBaseline 'top', the top of the em box: the Latin face's ascent's share of it.
  const latin = fontNamed(baseFontName(WEIGHT), WEIGHT);
  const baseline = (px * latin.ascent) / (latin.ascent - latin.descent);
  const maxWidth = width - 2 * layout.padding;

  const masks = laidOut.flatMap((line, i) => {
    // Like the canvas's fillText maxWidth: a line that still overflows is squeezed, not cut.
    const squeeze = line.width * px > maxWidth ? maxWidth / (line.width * px) : 1;
    const y = layout.bandTop + layout.padding + i * layout.lineHeight + baseline;
    return line.glyphs.flatMap((placed): PlacedMask[] => {
      const { minX, minY, maxX, maxY } = placed.glyph.bbox;
      if (!(maxX > minX && maxY > minY)) return [];
      const gx = QUARTER(layout.padding + placed.x * px * squeeze);
      const gy = QUARTER(y - placed.y * px);
      const sx = placed.unit * px * squeeze;
      const sy = placed.unit * px;
      // The box from the pixel holding the origin, a pixel of margin for the anti-aliasing.
      const fx = gx - Math.floor(gx);
      const fy = gy - Math.floor(gy);
      const left = Math.floor(fx + minX * sx) - 1;
      const top = Math.floor(fy - maxY * sy) - 1;
      const boxWidth = Math.ceil(fx + maxX * sx) + 1 - left;
      const boxHeight = Math.ceil(fy - minY * sy) + 1 - top;
      return [
        {
          key: `${placed.key} ${sx.toFixed(5)} ${sy.toFixed(5)} ${fx} ${fy}`,
          x: Math.floor(gx) + left,
          y: Math.floor(gy) + top,
          width: boxWidth,
          height: boxHeight,
          // Font units point up; the image's y points down.
          svg: () =>
            Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="${boxWidth}" height="${boxHeight}">` +
                `<path fill="${OVERLAY_TEXT_COLOR}" d="${shapes.outline(placed)}" transform="translate(${(fx - left).toFixed(2)} ${(fy - top).toFixed(2)}) scale(${sx.toFixed(5)} ${(-sy).toFixed(5)})"/></svg>`,
            ),
        },
      ];
    });
  });
  return { top: layout.bandTop, height: layout.bandHeight, masks };
}
