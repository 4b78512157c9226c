/**
 * The register handed back as a spreadsheet: an XLSX made while the rows are read in batches of
 * the register's order (server/xlsx/stream-workbook.ts), so a 100,000-curve export holds one
 * batch in memory, not the sheet, and waits for a slow client instead of buffering for it. The
 * header row is frozen with an autofilter, and text is written as text: a station named
 * '=HYPERLINK(...)' stays those characters, in the file and when an officer edits the cell.
 */
import type { Readable } from 'node:stream';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import type { RegisterKind } from '../../../common/schemas/register.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import { type CellValue, StreamWorkbook } from '../../xlsx/stream-workbook.js';
import { registerColumnTitle, registerSheetTitle } from '../reports/index.js';
import { COLUMNS_OF, type RegisterColumn } from './columns.js';
import { type Register, REGISTERS } from './registers.js';

/** Rows read (and written) at a time: memory holds one batch. */
const BATCH_ROWS = 2000;
const FILE_STEMS: Record<RegisterKind, string> = { curves: 'Curve_Details', stations: 'Station_Details' };

export interface RegisterExport {
  fileName: string;
  stream: Readable;
}

/** `Curve_Details_2026-11-23.xlsx`, or `Curve_Details_RTM-WR_2026-11-23.xlsx` for one division. */
function exportFileName(kind: RegisterKind, division: string | undefined, today: string): string {
  return datedFileName(FILE_STEMS[kind], [division], today, 'xlsx');
}

function cellOf(column: RegisterColumn<string>, value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  return column.numeric && typeof value === 'number' ? value : String(value);
}

async function writeSheet<V extends Record<string, unknown>, R>(
  workbook: StreamWorkbook,
  register: Register<V, R>,
  first: R[],
  next: (after: R) => Promise<R[]>,
): Promise<void> {
  const columns: readonly RegisterColumn<string>[] = COLUMNS_OF[register.kind];
  // Titled in both languages like every workbook the app makes; the import reads each title's
  // English half, so an export goes back in as it came out (columns.ts, matchHeaders).
  const sheet = workbook.addSheet(
    registerSheetTitle(register.kind),
    columns.map((c) => ({ header: registerColumnTitle(c.header), width: c.width, text: !c.numeric })),
  );
  let batch = first;
  while (batch.length > 0) {
    await sheet.writeRows(
      batch.map((row) => {
        const values = register.valuesOf(row);
        return columns.map((c) => cellOf(c, values[c.field]));
      }),
    );
    const last = batch[batch.length - 1];
    batch = batch.length < BATCH_ROWS || last === undefined ? [] : await next(last);
  }
  sheet.end();
  await workbook.finish();
}

export function createRegisterExportService(deps: { db: Db; appTimeZone: string; log: { error(obj: object, msg: string): void } }) {
  async function open<V extends Record<string, unknown>, R>(register: Register<V, R>, division: string | undefined): Promise<RegisterExport> {
    // The first batch is read before the answer starts: a database failure is still a clean 500.
    const first = await register.batch(deps.db, division, null, BATCH_ROWS);
    const workbook = new StreamWorkbook();
    writeSheet(workbook, register, first, (after) => register.batch(deps.db, division, after, BATCH_ROWS)).catch((error: unknown) => {
      // A client that went away is not a failure; anything else cuts the answer short, visibly.
      if (workbook.aborted) return;
      deps.log.error({ err: error, kind: register.kind }, 'register export failed part way');
      workbook.output.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return { fileName: exportFileName(register.kind, division, dateInTimeZone(new Date(), deps.appTimeZone)), stream: workbook.output };
  }

  return {
    open(kind: RegisterKind, division: string | undefined): Promise<RegisterExport> {
      return kind === 'curves' ? open(REGISTERS.curves, division) : open(REGISTERS.stations, division);
    },
  };
}

export type RegisterExportService = ReturnType<typeof createRegisterExportService>;
