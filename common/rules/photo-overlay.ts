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
  /** Up, Down or Single as stored, or as the phone shows it in the technician's language. */
  line: string;
  cofValue: string;
  technicianName: string;
  technicianId: string;
  position: GeoFix | null;
}

/**
 * The overlay's fixed words, so the phone can draw them in the technician's language (common/
 * runs on the server too, so it cannot translate: the web passes its translations). The values
 * beside them (division, section, curve number, date and time, coordinates) are data, drawn as
 * they are.
 */
export interface OverlayLabels {
  types: Readonly<Record<InspectionType, string>>;
  division: string;
  section: string;
  curve: string;
  line: string;
  cof: string;
  technician: string;
  gps: string;
  /** The whole GPS line when the device gave no position. */
  gpsUnavailable: string;
}

/** The spec's English words: what the demo seed draws and the phone draws in English. */
export const ENGLISH_OVERLAY_LABELS: OverlayLabels = {
  types: { Service: 'Service Inspection', CoF: 'CoF Measurement' },
  division: 'Division',
  section: 'Section',
  curve: 'Curve',
  line: 'Line',
  cof: 'CoF',
  technician: 'Technician',
  gps: 'GPS',
  gpsUnavailable: 'GPS: unavailable',
};

export function formatPosition(position: GeoFix | null, labels: Pick<OverlayLabels, 'gps' | 'gpsUnavailable'> = ENGLISH_OVERLAY_LABELS): string {
  if (position === null) return labels.gpsUnavailable;
  // Six decimals is about 0.1 m: finer than any phone fix, so nothing is lost by rounding.
  const { latitude, longitude, accuracy } = position;
  return `${labels.gps}: ${latitude.toFixed(6)}, ${longitude.toFixed(6)} (±${Math.round(accuracy)} m)`;
}

/**
 * The overlay text, top to bottom. Related items share a line so the band stays low in the
 * frame and does not hide the machine the photo is meant to show.
 */
export function overlayLines(details: OverlayDetails, labels: OverlayLabels = ENGLISH_OVERLAY_LABELS): string[] {
  const curve = [`${labels.curve}: ${details.curveNumber}`, `${labels.line}: ${details.line}`];
  if (details.type === 'CoF') curve.push(`${labels.cof}: ${details.cofValue}`);
  return [
    `${details.takenAt} | ${labels.types[details.type]}`,
    `${labels.division}: ${details.divisionRailway} | ${labels.section}: ${details.section}`,
    curve.join(' | '),
    `${labels.technician}: ${details.technicianName} (${details.technicianId})`,
    formatPosition(details.position, labels),
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
