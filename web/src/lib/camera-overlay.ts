/**
 * Draws the data overlay into every inspection photo (docs/functional-requirements.md, 'Photo with a burned-in overlay (/camera)'). It is part
 * of the pixels, not metadata, so the photo keeps its evidence when it is downloaded,
 * printed in a PDF report or forwarded on its own. Its text and layout are shared with the
 * demo seed's photos (common/rules/photo-overlay.ts).
 */
import { t } from '@lingui/core/macro';
import {
  ENGLISH_OVERLAY_LABELS,
  OVERLAY_BAND_COLOR,
  OVERLAY_FONT_WEIGHT,
  OVERLAY_TEXT_COLOR,
  overlayLayout,
  type OverlayLabels,
} from '../../../common/rules/photo-overlay.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' in the device's own time zone: what the technician's watch says. */
export function formatLocalTimestamp(date: Date): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * The overlay's words in the technician's active language (the data beside them are drawn as
 * they are). Read at capture, so the photo carries the language the screen shows; in English
 * they are the spec's words, the same as the demo seed's (ENGLISH_OVERLAY_LABELS).
 */
export function overlayLabels(): OverlayLabels {
  return {
    types: { Service: t`Service Inspection`, CoF: t`CoF Measurement` },
    division: t`Division`,
    section: t`Section`,
    curve: t`Curve`,
    line: t`Line`,
    // Abbreviations the railway writes in Latin letters in Hindi too (docs/glossary.md).
    cof: ENGLISH_OVERLAY_LABELS.cof,
    gps: ENGLISH_OVERLAY_LABELS.gps,
    technician: t`Technician`,
    gpsUnavailable: t`GPS: unavailable`,
  };
}

/** The parts of a 2D context the overlay uses, so tests can record the drawing. */
export type OverlayContext = Pick<
  CanvasRenderingContext2D,
  'fillStyle' | 'font' | 'textBaseline' | 'fillRect' | 'fillText' | 'measureText'
>;

// The app's own stack, then faces with Devanagari (Android, Windows) for Hindi labels and names:
// a canvas falls back per letter, so Latin text still draws in the first face as before.
const FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Devanagari", "Nirmala UI", sans-serif';
const fontOf = (px: number) => `${OVERLAY_FONT_WEIGHT} ${px}px ${FONT_STACK}`;

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
