/**
 * Draws the data overlay into every inspection photo (docs/functional-requirements.md, 'Photo with a burned-in overlay (/camera)'). It is part
 * of the pixels, not metadata, so the photo keeps its evidence when it is downloaded,
 * printed in a PDF report or forwarded on its own. Its text and layout are shared with the
 * demo seed's photos (common/rules/photo-overlay.ts).
 */
import {
  OVERLAY_BAND_COLOR,
  OVERLAY_FONT_WEIGHT,
  OVERLAY_TEXT_COLOR,
  overlayLayout,
} from '../../../common/rules/photo-overlay.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' in the device's own time zone: what the technician's watch says. */
export function formatLocalTimestamp(date: Date): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The parts of a 2D context the overlay uses, so tests can record the drawing. */
export type OverlayContext = Pick<
  CanvasRenderingContext2D,
  'fillStyle' | 'font' | 'textBaseline' | 'fillRect' | 'fillText' | 'measureText'
>;

const fontOf = (px: number) => `${OVERLAY_FONT_WEIGHT} ${px}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;

/** Draws the band across the bottom of the image with the lines in white (layout: overlayLayout). */
export function drawOverlay(ctx: OverlayContext, width: number, height: number, lines: readonly string[]): void {
  const { fontSize, padding, lineHeight, bandTop, bandHeight } = overlayLayout(width, height, lines.length, (px) => {
    ctx.font = fontOf(px);
    return Math.max(0, ...lines.map((line) => ctx.measureText(line).width));
  });
  ctx.font = fontOf(fontSize);

  ctx.fillStyle = OVERLAY_BAND_COLOR;
  ctx.fillRect(0, bandTop, width, bandHeight);
  ctx.fillStyle = OVERLAY_TEXT_COLOR;
  ctx.textBaseline = 'top';
  lines.forEach((line, i) => {
    // maxWidth squeezes a line that still overflows instead of cutting it off.
    ctx.fillText(line, padding, bandTop + padding + i * lineHeight, width - 2 * padding);
  });
}
