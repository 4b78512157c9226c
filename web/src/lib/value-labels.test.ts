import { describe, expect, it } from 'vitest';
import { INSPECTION_TYPES, LINES, LOCATIONS, ROLES, SERVICE_UPDATE_LABELS, SERVICE_UPDATES } from '../../../common/constants.js';
import { i18n } from './i18n.js';
import { roleLabel } from './role-label.js';
import { inspectionTypeLabel, LINE_TEXTS, lineLabel, locationLabel, serviceUpdateLabel } from './value-labels.js';

describe('the shown labels of stored values', () => {
  it('are in English the spec labels the field app shows', () => {
    for (const value of SERVICE_UPDATES) expect(serviceUpdateLabel(value)).toBe(SERVICE_UPDATE_LABELS[value]);
    for (const line of LINES) expect(lineLabel(line)).toBe(line);
    for (const location of LOCATIONS) expect(locationLabel(location)).toBe(location);
    for (const type of INSPECTION_TYPES) expect(inspectionTypeLabel(type)).toBe(type);
    for (const role of ROLES) expect(roleLabel(role)).toBe(role);
  });

  it('show a value the app never offered as stored', () => {
    expect(lineLabel('Loop')).toBe('Loop');
    expect(serviceUpdateLabel('toString')).toBe('toString');
  });

  it('follow the language shown when they are read', () => {
    i18n.load('hi', { [LINE_TEXTS.Up.id]: 'अप' });
    i18n.activate('hi');
    expect(lineLabel('Up')).toBe('अप');
    i18n.activate('en');
    expect(lineLabel('Up')).toBe('Up');
  });
});
