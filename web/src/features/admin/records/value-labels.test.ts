import { describe, expect, it } from 'vitest';
import { INSPECTION_TYPES, LINES, LOCATIONS, SERVICE_UPDATE_LABELS, SERVICE_UPDATES } from '../../../../../common/constants.js';
import { i18n } from '../../../lib/i18n.js';
import { inspectionTypeText, LINE_TEXTS, lineText, locationText, serviceUpdateLabel } from './value-labels.js';

describe('the shown labels of stored values', () => {
  it('are in English the spec labels the field app shows', () => {
    for (const value of SERVICE_UPDATES) expect(serviceUpdateLabel(value)).toBe(SERVICE_UPDATE_LABELS[value]);
    for (const line of LINES) expect(lineText(line)).toBe(line);
    for (const location of LOCATIONS) expect(locationText(location)).toBe(location);
    for (const type of INSPECTION_TYPES) expect(inspectionTypeText(type)).toBe(type);
  });

  it('show a value the app never offered as stored', () => {
    expect(lineText('Loop')).toBe('Loop');
    expect(serviceUpdateLabel('toString')).toBe('toString');
  });

  it('follow the language shown when they are read', () => {
    i18n.load('hi', { [LINE_TEXTS.Up.id]: 'अप' });
    i18n.activate('hi');
    expect(lineText('Up')).toBe('अप');
    i18n.activate('en');
    expect(lineText('Up')).toBe('Up');
  });
});
