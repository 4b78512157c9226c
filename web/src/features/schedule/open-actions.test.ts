import { describe, expect, it } from 'vitest';
import type { Action } from '../../../../common/schemas/actions.js';
import type { WaitingVisit } from '../outbox/index.js';
import { dueActions } from './open-actions.js';

const TODAY = '2026-11-23';
const T = 0.25;
const SECTIONS = new Set(['RTM-NAD']);

function action(id: number, overrides: Partial<Action>): Action {
  return {
    id,
    kind: 'part-stolen',
    state: 'open',
    severity: 'high',
    divisionRailway: 'RTM/WR',
    section: 'RTM-NAD',
    curveNumber: '12',
    line: 'Up',
    sse: null,
    reported: 'Pump – Motor',
    reportCount: 1,
    openedAt: '2026-11-20T06:30:00.000Z',
    openedOn: '2026-11-20',
    dueDate: '2026-11-27',
    lastReportedOn: '2026-11-20',
    ageDays: 3,
    ageing: '3-7',
    overdue: false,
    openedByRecordId: 'INS-20261120-AAAAAA',
    closedOn: null,
    closedAt: null,
    closedByRecordId: null,
    closedByEmployeeId: null,
    closeNote: null,
    history: [],
    ...overrides,
  };
}

const visit = (overrides: Partial<WaitingVisit>): WaitingVisit => ({
  type: 'Service',
  section: 'RTM-NAD',
  curveNumber: '12',
  line: 'Up',
  date: TODAY,
  serviceUpdate: 'working-fine',
  cofValue: null,
  partCategory: null,
  partItemName: null,
  isMachineWorking: true,
  ...overrides,
});

describe('the open actions on the phone', () => {
  const stolen = action(1, {});
  const late = action(2, { kind: 'machine-not-working', reported: 'Machine not working', openedOn: '2026-11-16', dueDate: '2026-11-18', curveNumber: '14' });
  const cof = action(3, { kind: 'cof-high', reported: 'CoF 0.31', curveNumber: '15', line: 'Down' });
  const elsewhere = action(4, { section: 'NAD-UJN' });

  it("lists the open actions of the technician's sections, the most overdue first, with their age and days left", () => {
    expect(dueActions([stolen, late, cof, elsewhere], [], SECTIONS, TODAY, T).map((d) => [d.action.id, d.ageDays, d.daysLeft])).toEqual([
      [2, 7, -5],
      [1, 3, 4],
      [3, 3, 4],
    ]);
  });

  it('drops an action at once when a visit in the outbox proves the fix, as the server will', () => {
    const ids = (waiting: WaitingVisit[]) => dueActions([stolen, late, cof], waiting, SECTIONS, TODAY, T).map((d) => d.action.id);
    expect(ids([visit({})])).toEqual([2, 3]);
    // Not working fine, the other line, or dated before the newest report: no proof.
    expect(ids([visit({ isMachineWorking: false }), visit({ line: 'Down' }), visit({ date: '2026-11-19' })])).toEqual([2, 1, 3]);
    // A CoF reading equal to the threshold closes the CoF action (its line spelt as the register does).
    expect(ids([visit({ type: 'CoF', curveNumber: '15', line: 'DN', serviceUpdate: null, isMachineWorking: null, cofValue: '0.25' })])).toEqual([2, 1]);
    expect(ids([visit({ type: 'CoF', curveNumber: '15', line: 'Down', serviceUpdate: null, isMachineWorking: null, cofValue: '0.26' })])).toEqual([2, 1, 3]);
  });
});
