/**
 * The data overlay burned into every inspection photo (docs/functional-requirements.md, 'Photo with a burned-in overlay (/camera)'). It is part
 * of the pixels, not metadata, so the photo keeps its evidence when it is downloaded,
 * printed in a PDF report or forwarded on its own.
 */
import type { InspectionType } from '../../../common/constants.js';

/** A device position as the Geolocation API reports it; accuracy in metres. */
export interface GeoFix {
  latitude: number;
  longitude: number;
  accuracy: number;
}

export interface OverlayDetails {
  takenAt: Date;
  type: InspectionType;
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  cofValue: string;
  technicianName: string;
  technicianId: string;
  position: GeoFix | null;
}

const TYPE_LABELS: Record<InspectionType, string> = {
  Service: 'Service Inspection',
  CoF: 'CoF Measurement',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' in the device's own time zone: what the technician's watch says. */
export function formatLocalTimestamp(date: Date): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function formatPosition(position: GeoFix | null): string {
  if (position === null) return 'GPS: unavailable';
  // Six decimals is about 0.1 m: finer than any phone fix, so nothing is lost by rounding.
  const { latitude, longitude, accuracy } = position;
  return `GPS: ${latitude.toFixed(6)}, ${longitude.toFixed(6)} (±${Math.round(accuracy)} m)`;
}

/**
 * The overlay text, top to bottom. Related items share a line so the band stays low in the
 * frame and does not hide the machine the photo is meant to show.
 */
export function overlayLines(details: OverlayDetails): string[] {
  const curve = [`Curve: ${details.curveNumber}`, `Line: ${details.line}`];
  if (details.type === 'CoF') curve.push(`CoF: ${details.cofValue}`);
  return [
    `${formatLocalTimestamp(details.takenAt)} | ${TYPE_LABELS[details.type]}`,
    `Division: ${details.divisionRailway} | Section: ${details.section}`,
    curve.join(' | '),
    `Technician: ${details.technicianName} (${details.technicianId})`,
    formatPosition(details.position),
  ];
}

/** The parts of a 2D context the overlay uses, so tests can record the drawing. */
export type OverlayContext = Pick<
  CanvasRenderingContext2D,
  'fillStyle' | 'font' | 'textBaseline' | 'fillRect' | 'fillText' | 'measureText'
>;

export const OVERLAY_BAND_COLOR = 'rgba(0, 0, 0, 0.6)';
export const OVERLAY_TEXT_COLOR = '#ffffff';
// Below this the text stops being readable on a phone screen or a printed report.
const MIN_FONT_PX = 12;

const fontOf = (px: number) => `600 ${px}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;

/**
 * Draws a dark band across the bottom of the image with the lines in white. The font scales
 * with the image height (height / 32), and shrinks for a narrow portrait image so the
 * longest line still fits across.
 */
export function drawOverlay(ctx: OverlayContext, width: number, height: number, lines: readonly string[]): void {
  let fontSize = Math.max(MIN_FONT_PX, Math.round(height / 32));
  ctx.font = fontOf(fontSize);
  const widest = Math.max(0, ...lines.map((line) => ctx.measureText(line).width));
  const room = width - 2 * Math.round(fontSize * 0.6);
  if (widest > room && widest > 0) {
    fontSize = Math.max(MIN_FONT_PX, Math.floor((fontSize * room) / widest));
    ctx.font = fontOf(fontSize);
  }
  const padding = Math.round(fontSize * 0.6);
  const lineHeight = Math.round(fontSize * 1.3);
  const bandHeight = lineHeight * lines.length + 2 * padding;
  const bandTop = height - bandHeight;

  ctx.fillStyle = OVERLAY_BAND_COLOR;
  ctx.fillRect(0, bandTop, width, bandHeight);
  ctx.fillStyle = OVERLAY_TEXT_COLOR;
  ctx.textBaseline = 'top';
  lines.forEach((line, i) => {
    // maxWidth squeezes a line that still overflows instead of cutting it off.
    ctx.fillText(line, padding, bandTop + padding + i * lineHeight, width - 2 * padding);
  });
}
