/**
 * The actions as spreadsheet rows, one shape for every workbook that lists them: the actions
 * report and the maintenance report's Actions sheet. Dates are real dates; codes and record IDs
 * stay text.
 */
import { ACTION_KIND_TEXT, type ActionKind } from '../../../common/rules/follow-up-actions.js';
import type { Action } from '../../../common/schemas/actions.js';
import type { CellValue, SheetColumn } from '../../xlsx/stream-workbook.js';

export const ACTION_SHEET_COLUMNS: SheetColumn[] = [
  { header: 'Action', width: 8 },
  { header: 'Fault', width: 20, text: true },
  { header: 'State', width: 8, text: true },
  { header: 'Severity', width: 9, text: true },
  { header: 'Division', width: 10, text: true },
  { header: 'Section', width: 16, text: true },
  { header: 'Curve', width: 12, text: true },
  { header: 'Line', width: 7, text: true },
  { header: 'SSE', width: 20, text: true },
  { header: 'Reported', width: 28, text: true },
  { header: 'Reports', width: 8 },
  { header: 'Opened', width: 11, date: true },
  { header: 'Due', width: 11, date: true },
  { header: 'Overdue', width: 8, text: true },
  { header: 'Days open', width: 9 },
  { header: 'Opened by record', width: 22, text: true },
  { header: 'Closed', width: 11, date: true },
  { header: 'Closed by record', width: 22, text: true },
  { header: 'Closed by', width: 12, text: true },
  { header: 'Note', width: 36, text: true },
];

/** One action's row; `overdue` for the row's highlight. */
export function actionSheetRow(action: Action): { cells: CellValue[]; overdue: boolean } {
  return {
    cells: [
      action.id,
      ACTION_KIND_TEXT[action.kind as ActionKind],
      action.state === 'open' ? 'Open' : 'Closed',
      action.severity === 'high' ? 'High' : 'Medium',
      action.divisionRailway,
      action.section,
      action.curveNumber,
      action.line,
      action.sse,
      action.reported,
      action.reportCount,
      action.openedOn,
      action.dueDate,
      action.overdue ? 'Yes' : 'No',
      action.ageDays,
      action.openedByRecordId,
      action.closedOn,
      action.closedByRecordId,
      action.closedByEmployeeId,
      action.closeNote,
    ],
    overdue: action.overdue,
  };
}
