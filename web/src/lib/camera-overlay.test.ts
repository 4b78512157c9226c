import { describe, expect, it, vi } from 'vitest';
import { drawOverlay, formatLocalTimestamp, OVERLAY_BAND_COLOR, OVERLAY_TEXT_COLOR, type OverlayContext, type OverlayDetails, overlayLines } from './camera-overlay.js';

const service: OverlayDetails = {
  // Local time: the overlay shows what the technician's phone clock says.
  takenAt: new Date(2025, 2, 4, 9, 5, 7),
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

describe('overlayLines', () => {
  it('lists date and time, type, division, section, curve, line, technician and GPS for a Service photo', () => {
    expect(overlayLines(service)).toEqual([
      '2025-03-04 09:05:07 | Service Inspection',
      'Division: RTM/WR | Section: RTM-NAD',
      'Curve: C-17 | Line: Up',
      'Technician: Ravi Kumar (TECH001)',
      'GPS: 23.331500, 75.036700 (±12 m)',
    ]);
  });

  it('adds the CoF value for a CoF measurement and says when GPS is unavailable', () => {
    const lines = overlayLines({ ...service, type: 'CoF', cofValue: '0.25', line: 'Single', position: null });
    expect(lines[0]).toBe('2025-03-04 09:05:07 | CoF Measurement');
    expect(lines[2]).toBe('Curve: C-17 | Line: Single | CoF: 0.25');
    expect(lines[4]).toBe('GPS: unavailable');
  });

  it('leaves the CoF value out of a Service photo', () => {
    expect(overlayLines(service).join('\n')).not.toContain('CoF:');
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
