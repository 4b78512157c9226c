import { msg } from '@lingui/core/macro';
import { describe, expect, it, vi } from 'vitest';
import {
  ENGLISH_OVERLAY_LABELS,
  OVERLAY_BAND_COLOR,
  OVERLAY_TEXT_COLOR,
  type OverlayDetails,
  type OverlayLabels,
  overlayLines,
} from '../../../common/rules/photo-overlay.js';
import { drawOverlay, formatLocalTimestamp, type OverlayContext, overlayLabels } from './camera-overlay.js';
import { i18n } from './i18n.js';

const service: OverlayDetails = {
  // Local time: the overlay shows what the technician's phone clock says.
  takenAt: formatLocalTimestamp(new Date(2025, 2, 4, 9, 5, 7)),
  type: 'Service',
  divisionRailway: 'RTM/WR',
  section: 'RTM-NAD',
  curveNumber: 'C-17',
  line: 'Up',
  cofValue: '0.',
  technicianName: 'Ravi Kumar',
  technicianId: 'TECH001',
  position: { latitude: 23.3315, longitude: 75.0367, accuracy: 12.4 },
};

describe('overlay lines on the phone', () => {
  // The lines themselves are held by common/rules/photo-overlay.test.ts; here, the phone's clock in them.
  it('start with the local date and time of the phone clock, then the inspection type', () => {
    expect(overlayLines(service)[0]).toBe('2025-03-04 09:05:07 | Service Inspection');
  });
});

describe('overlayLabels', () => {
  it("are the spec's English words, the demo seed's, in English", () => {
    expect(overlayLabels()).toEqual(ENGLISH_OVERLAY_LABELS);
    expect(overlayLines(service, overlayLabels())).toEqual(overlayLines(service));
  });

  it("follow the technician's active language, and keep CoF and GPS in Latin letters", () => {
    const division = msg`Division`;
    const serviceType = msg`Service Inspection`;
    i18n.load('hi', { [division.id]: 'मंडल', [serviceType.id]: 'सर्विस निरीक्षण' });
    i18n.activate('hi');
    const labels = overlayLabels();
    expect(labels.division).toBe('मंडल');
    expect(labels.types.Service).toBe('सर्विस निरीक्षण');
    expect([labels.cof, labels.gps]).toEqual(['CoF', 'GPS']);
  });
});

describe('formatLocalTimestamp', () => {
  it('pads every part to YYYY-MM-DD HH:mm:ss', () => {
    expect(formatLocalTimestamp(new Date(2025, 0, 2, 3, 4, 5))).toBe('2025-01-02 03:04:05');
    expect(formatLocalTimestamp(new Date(2025, 11, 31, 23, 59, 59))).toBe('2025-12-31 23:59:59');
  });
});

const fontPx = (font: string) => Number(/(\d+)px/.exec(font)?.[1]);

/** A context that records the drawing; text measures like a real font: width grows with the font size. */
function recordingContext(emPerChar = 0.55) {
  const calls: Array<{ op: string; args: unknown[]; fillStyle: string; font: string }> = [];
  const ctx: OverlayContext = {
    fillStyle: '',
    font: '',
    textBaseline: 'alphabetic',
    fillRect: vi.fn((...args: unknown[]) => {
      calls.push({ op: 'fillRect', args, fillStyle: String(ctx.fillStyle), font: ctx.font });
    }),
    fillText: vi.fn((...args: unknown[]) => {
      calls.push({ op: 'fillText', args, fillStyle: String(ctx.fillStyle), font: ctx.font });
    }),
    measureText: (text: string) => ({ width: text.length * emPerChar * fontPx(ctx.font) }) as TextMetrics,
  };
  return { ctx, calls };
}

describe('drawOverlay', () => {
  const lines = overlayLines(service);

  it('draws a dark band across the bottom and every line in white inside it', () => {
    const { ctx, calls } = recordingContext();
    drawOverlay(ctx, 1920, 1080, lines);

    const band = calls.find((c) => c.op === 'fillRect');
    expect(band?.fillStyle).toBe(OVERLAY_BAND_COLOR);
    const [x, top, width, height] = band?.args ?? [];
    expect([x, width]).toEqual([0, 1920]);
    expect(Number(top) + Number(height)).toBe(1080);

    const texts = calls.filter((c) => c.op === 'fillText');
    expect(texts.map((c) => c.args[0])).toEqual(lines);
    for (const text of texts) {
      expect(text.fillStyle).toBe(OVERLAY_TEXT_COLOR);
      expect(Number(text.args[2])).toBeGreaterThanOrEqual(Number(top));
      expect(Number(text.args[2])).toBeLessThan(1080);
    }
  });

  it('scales the font with the image height (height / 32)', () => {
    const small = recordingContext();
    drawOverlay(small.ctx, 1280, 720, lines);
    const large = recordingContext();
    drawOverlay(large.ctx, 3840, 2160, lines);
    expect(fontPx(small.ctx.font)).toBe(23);
    expect(fontPx(large.ctx.font)).toBe(68);
  });

  it('names a face with Devanagari in its font, for Hindi labels and names', () => {
    const { ctx } = recordingContext();
    drawOverlay(ctx, 1920, 1080, lines);
    expect(ctx.font).toMatch(/^600 34px .*"Noto Sans Devanagari".*, sans-serif$/);
  });

  it('draws the lines of the labels it is given, and longer Hindi lines still fit across', () => {
    const hindi: OverlayLabels = {
      types: { Service: 'सर्विस निरीक्षण', CoF: 'घर्षण गुणांक (CoF) माप' },
      division: 'मंडल/रेलवे',
      section: 'खंड',
      curve: 'कर्व नंबर',
      line: 'लाइन',
      cof: 'CoF',
      technician: 'तकनीशियन',
      gps: 'GPS',
      gpsUnavailable: 'GPS: उपलब्ध नहीं',
    };
    const hindiLines = overlayLines({ ...service, type: 'CoF', cofValue: '0.25', line: 'अप' }, hindi);
    expect(hindiLines.join(' ').length).toBeGreaterThan(lines.join(' ').length);
    for (const [width, height] of [
      [1920, 1080],
      [1080, 1920],
    ] as const) {
      const { ctx, calls } = recordingContext();
      drawOverlay(ctx, width, height, hindiLines);
      const texts = calls.filter((c) => c.op === 'fillText');
      expect(texts.map((c) => c.args[0])).toEqual(hindiLines);
      const size = fontPx(ctx.font);
      expect(size).toBeGreaterThanOrEqual(12);
      const widest = Math.max(...hindiLines.map((l) => ctx.measureText(l).width));
      expect(widest).toBeLessThanOrEqual(width - 2 * Math.round(size * 0.6));
      // The band holds every line above the photo's bottom edge.
      const band = calls.find((c) => c.op === 'fillRect');
      expect(Number(band?.args[1]) + Number(band?.args[3])).toBe(height);
      expect(Number(texts.at(-1)?.args[2]) + size).toBeLessThanOrEqual(height);
    }
  });

  it('shrinks the font for a narrow portrait photo so the longest line fits across', () => {
    const { ctx, calls } = recordingContext();
    drawOverlay(ctx, 1080, 1920, lines);
    const size = fontPx(ctx.font);
    expect(size).toBeLessThan(1920 / 32);
    const widest = Math.max(...lines.map((l) => ctx.measureText(l).width));
    expect(widest).toBeLessThanOrEqual(1080 - 2 * Math.round(size * 0.6));
    expect(calls.filter((c) => c.op === 'fillText')).toHaveLength(lines.length);
  });
});
