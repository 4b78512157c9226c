import { describe, expect, it } from 'vitest';
import { ENGLISH_OVERLAY_LABELS, type OverlayDetails, type OverlayLabels, overlayLayout, overlayLines } from './photo-overlay.js';

const service: OverlayDetails = {
  takenAt: '2025-03-04 09:05:07',
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

  it('writes the English labels when none are given', () => {
    expect(overlayLines(service, ENGLISH_OVERLAY_LABELS)).toEqual(overlayLines(service));
  });

  it('writes the labels it is given beside the data as they are', () => {
    const hindi: OverlayLabels = {
      types: { Service: 'सर्विस निरीक्षण', CoF: 'CoF माप' },
      division: 'मंडल',
      section: 'खंड',
      curve: 'कर्व',
      line: 'लाइन',
      cof: 'CoF',
      technician: 'तकनीशियन',
      gps: 'GPS',
      gpsUnavailable: 'GPS: उपलब्ध नहीं',
    };
    expect(overlayLines({ ...service, line: 'अप' }, hindi)).toEqual([
      '2025-03-04 09:05:07 | सर्विस निरीक्षण',
      'मंडल: RTM/WR | खंड: RTM-NAD',
      'कर्व: C-17 | लाइन: अप',
      'तकनीशियन: Ravi Kumar (TECH001)',
      'GPS: 23.331500, 75.036700 (±12 m)',
    ]);
    const cof = overlayLines({ ...service, type: 'CoF', cofValue: '0.25', position: null }, hindi);
    expect(cof[0]).toBe('2025-03-04 09:05:07 | CoF माप');
    expect(cof[2]).toBe('कर्व: C-17 | लाइन: Up | CoF: 0.25');
    expect(cof[4]).toBe('GPS: उपलब्ध नहीं');
  });
});

describe('overlayLayout', () => {
  const narrowText = () => 100;

  it('puts a band of the lines and its padding flush with the bottom of the image', () => {
    const layout = overlayLayout(1920, 1080, 5, narrowText);
    expect(layout.fontSize).toBe(34);
    expect(layout.padding).toBe(Math.round(34 * 0.6));
    expect(layout.lineHeight).toBe(Math.round(34 * 1.3));
    expect(layout.bandHeight).toBe(5 * layout.lineHeight + 2 * layout.padding);
    expect(layout.bandTop + layout.bandHeight).toBe(1080);
  });

  it('shrinks the font so the widest line fits across, but never below 12 px', () => {
    // Text as wide as 0.55 em a character, 60 characters on its widest line.
    const widestAt = (px: number) => 60 * 0.55 * px;
    const portrait = overlayLayout(1080, 1920, 5, widestAt);
    expect(portrait.fontSize).toBeLessThan(1920 / 32);
    expect(widestAt(portrait.fontSize)).toBeLessThanOrEqual(1080 - 2 * portrait.padding);
    expect(overlayLayout(100, 1920, 5, widestAt).fontSize).toBe(12);
  });
});
