import { describe, expect, it, vi } from 'vitest';
import { OVERLAY_BAND_COLOR, OVERLAY_TEXT_COLOR, type OverlayDetails, overlayLines } from '../../../common/rules/photo-overlay.js';
import { drawOverlay, formatLocalTimestamp, type OverlayContext } from './camera-overlay.js';

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
