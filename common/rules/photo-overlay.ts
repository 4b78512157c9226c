/**
 * The data overlay burned into every inspection photo (docs/functional-requirements.md, 'Photo
 * with a burned-in overlay (/camera)'): its text and where it sits. The phone draws it on a
 * canvas at capture; the demo seed draws the same lines in the same band on its photos, so a
 * demo record's photo reads as the phone would have made it.
 */
import type { InspectionType } from '../constants.js';

/** A device position as the Geolocation API reports it; accuracy in metres. */
export interface GeoFix {
  latitude: number;
  longitude: number;
  accuracy: number;
}

export interface OverlayDetails {
  /** The phone's own clock at capture, 'YYYY-MM-DD HH:mm:ss': what the technician's watch says. */
  takenAt: string;
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
    `${details.takenAt} | ${TYPE_LABELS[details.type]}`,
    `Division: ${details.divisionRailway} | Section: ${details.section}`,
    curve.join(' | '),
    `Technician: ${details.technicianName} (${details.technicianId})`,
    formatPosition(details.position),
  ];
}

export const OVERLAY_BAND_COLOR = 'rgba(0, 0, 0, 0.6)';
export const OVERLAY_TEXT_COLOR = '#ffffff';
/** Semi-bold: it stays legible over a busy photo without looking shouted. */
export const OVERLAY_FONT_WEIGHT = 600;
// Below this the text stops being readable on a phone screen or a printed report.
const MIN_FONT_PX = 12;

/** Where the band and its lines go in an image, in pixels; line i's top is `bandTop + padding + i * lineHeight`. */
export interface OverlayLayout {
  fontSize: number;
  padding: number;
  lineHeight: number;
  bandTop: number;
  bandHeight: number;
}

/**
 * A dark band across the bottom of the image holding `lineCount` lines, text from the left
 * edge after the padding. The font scales with the image height (height / 32), and shrinks
 * for a narrow portrait image so the widest line still fits across; `widestAt(fontSize)` is
 * the widest line's width at that size in the drawer's font.
 */
export function overlayLayout(width: number, height: number, lineCount: number, widestAt: (fontSize: number) => number): OverlayLayout {
  let fontSize = Math.max(MIN_FONT_PX, Math.round(height / 32));
  const widest = widestAt(fontSize);
  const room = width - 2 * Math.round(fontSize * 0.6);
  if (widest > room && widest > 0) fontSize = Math.max(MIN_FONT_PX, Math.floor((fontSize * room) / widest));
  const padding = Math.round(fontSize * 0.6);
  const lineHeight = Math.round(fontSize * 1.3);
  const bandHeight = lineHeight * lineCount + 2 * padding;
  return { fontSize, padding, lineHeight, bandTop: height - bandHeight, bandHeight };
}
