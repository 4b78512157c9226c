import { describe, expect, it } from 'vitest';
import { ageingBandOf, faultsReportedBy, kindsClosedBy, type VisitFacts } from './follow-up-actions.js';

const T = 0.25;
const service = (overrides: Partial<VisitFacts>): VisitFacts => ({
  type: 'Service',
  serviceUpdate: 'working-fine',
  partCategory: null,
  partItemName: null,
  isMachineWorking: true,
  cofValue: null,
  ...overrides,
});
const cof = (cofValue: number | null): VisitFacts => ({ type: 'CoF', serviceUpdate: null, partCategory: null, partItemName: null, isMachineWorking: null, cofValue });

describe('faultsReportedBy', () => {
  it('reports a broken or stolen part with its category and item, and a machine not working', () => {
    expect(faultsReportedBy(service({ serviceUpdate: 'part-broken', partCategory: 'Pump', partItemName: 'Motor', isMachineWorking: false }), T)).toEqual([
      { kind: 'part-broken', reported: 'Pump – Motor' },
      { kind: 'machine-not-working', reported: 'Machine not working' },
    ]);
    expect(faultsReportedBy(service({ serviceUpdate: 'part-stolen', partCategory: 'Solar & Battery', partItemName: null }), T)).toEqual([
      { kind: 'part-stolen', reported: 'Solar & Battery' },
    ]);
    expect(faultsReportedBy(service({}), T)).toEqual([]);
    expect(faultsReportedBy(service({ serviceUpdate: 'uninstall', isMachineWorking: null }), T)).toEqual([]);
  });

  it('reports a CoF reading above the threshold only: equal to it is within', () => {
    expect(faultsReportedBy(cof(0.26), T)).toEqual([{ kind: 'cof-high', reported: 'CoF 0.26' }]);
    expect(faultsReportedBy(cof(0.25), T)).toEqual([]);
    expect(faultsReportedBy(cof(null), T)).toEqual([]);
  });
});

describe('kindsClosedBy', () => {
  it('closes part and machine actions only with working fine and the machine working', () => {
    expect(kindsClosedBy(service({}), T)).toEqual(['part-broken', 'part-stolen', 'machine-not-working']);
    expect(kindsClosedBy(service({ isMachineWorking: false }), T)).toEqual([]);
    expect(kindsClosedBy(service({ serviceUpdate: 'part-broken', isMachineWorking: true }), T)).toEqual([]);
    expect(kindsClosedBy(service({ serviceUpdate: 'uninstall', isMachineWorking: null }), T)).toEqual([]);
  });

  it('closes a CoF action with a reading equal to the threshold, not above it', () => {
    expect(kindsClosedBy(cof(0.25), T)).toEqual(['cof-high']);
    expect(kindsClosedBy(cof(0.251), T)).toEqual([]);
    expect(kindsClosedBy(cof(null), T)).toEqual([]);
  });
});

it('bands an open action by age: 0-2, 3-7, 8-30, over 30 days', () => {
  expect([0, 2, 3, 7, 8, 30, 31].map(ageingBandOf)).toEqual(['0-2', '0-2', '3-7', '3-7', '8-30', '8-30', 'over-30']);
});
