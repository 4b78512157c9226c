/**
 * The register handed back as a spreadsheet: an XLSX written by exceljs's streaming writer
 * while the rows are read in batches of the register's order, so a 100,000-curve export holds
 * one batch in memory, not the sheet. The header row is frozen with an autofilter, and every
 * text cell is written as text in a text-formatted column: a station named '=HYPERLINK(...)'
 * stays those characters, in the file and when an officer edits the cell.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import type { RegisterKind } from '../../../common/schemas/register.js';
import type { Db } from '../../db/client.js';
import { COLUMNS_OF, type SheetColumn } from './columns.js';
import { type Register, REGISTERS } from './registers.js';

/** Rows read (and written) at a time: memory holds one batch. */
const BATCH_ROWS = 2000;
const SHEET_NAMES: Record<RegisterKind, string> = { curves: 'Curve Details', stations: 'Station Details' };
const FILE_STEMS: Record<RegisterKind, string> = { curves: 'Curve_Details', stations: 'Station_Details' };
/** Characters XML 1.0 cannot hold at all; a cell keeps the rest of its text. */
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export interface RegisterExport {
  fileName: string;
  stream: Readable;
}

/** `Curve_Details_2026-11-23.xlsx`, or `Curve_Details_RTM-WR_2026-11-23.xlsx` for one division. */
export function exportFileName(kind: RegisterKind, division: string | undefined, today: string): string {
  const scope = division ? `_${division.replace(/[^\w-]+/g, '-')}` : '';
  return `${FILE_STEMS[kind]}${scope}_${today}.xlsx`;
}

function cellOf(column: SheetColumn<string>, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (column.numeric && typeof value === 'number') return value;
  return String(value).replace(XML_FORBIDDEN, '');
}

async function writeSheet<V extends Record<string, unknown>, R>(
  out: PassThrough,
  register: Register<V, R>,
  first: R[],
  next: (after: R) => Promise<R[]>,
): Promise<void> {
  const columns: readonly SheetColumn<string>[] = COLUMNS_OF[register.kind];
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(SHEET_NAMES[register.kind], { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.field, width: c.width, style: c.numeric ? {} : { numFmt: '@' } }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();

  let batch = first;
  while (batch.length > 0) {
    for (const row of batch) {
      const values = register.valuesOf(row);
      sheet.addRow(columns.map((c) => cellOf(c, values[c.field]))).commit();
    }
    // Wait for the client to take what is written: a slow phone must not make the server hold the sheet.
    if (out.writableNeedDrain) await once(out, 'drain');
    if (out.destroyed) return;
    const last = batch[batch.length - 1];
    batch = batch.length < BATCH_ROWS || last === undefined ? [] : await next(last);
  }
  sheet.commit();
  await workbook.commit();
}

export function createRegisterExportService(deps: { db: Db; appTimeZone: string; log: { error(obj: object, msg: string): void } }) {
  async function open<V extends Record<string, unknown>, R>(register: Register<V, R>, division: string | undefined): Promise<RegisterExport> {
    // The first batch is read before the answer starts: a database failure is still a clean 500.
    const first = await register.batch(deps.db, division, null, BATCH_ROWS);
    const out = new PassThrough();
    writeSheet(out, register, first, (after) => register.batch(deps.db, division, after, BATCH_ROWS)).catch((error: unknown) => {
      deps.log.error({ err: error, kind: register.kind }, 'register export failed part way');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return { fileName: exportFileName(register.kind, division, dateInTimeZone(new Date(), deps.appTimeZone)), stream: out };
  }

  return {
    open(kind: RegisterKind, division: string | undefined): Promise<RegisterExport> {
      return kind === 'curves' ? open(REGISTERS.curves, division) : open(REGISTERS.stations, division);
    },
  };
}

export type RegisterExportService = ReturnType<typeof createRegisterExportService>;
