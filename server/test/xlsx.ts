/**
 * Reads an XLSX download back with exceljs (a reader independent of the server's own writer,
 * server/xlsx/stream-workbook.ts) into plain values: each cell's value, whether it is a formula,
 * and its fill colour, row by row.
 */
import ExcelJS from 'exceljs';

export interface ReadCell {
  /** exceljs's value: text, number, a Date for a date-formatted number, null when empty. */
  value: ExcelJS.CellValue;
  /** The cell holds a formula (text beginning with '=' must never become one). */
  formula: boolean;
  /** The ARGB of a solid fill, null when the cell has no fill. */
  fill: string | null;
}

export interface ReadSheet {
  name: string;
  /** Every row from the first (the header), each `width` cells long. */
  rows: ReadCell[][];
}

function fillOf(cell: ExcelJS.Cell): string | null {
  const fill = cell.fill as ExcelJS.Fill | undefined;
  if (!fill || fill.type !== 'pattern' || fill.pattern === 'none') return null;
  return fill.fgColor?.argb ?? null;
}

/** Every sheet of the workbook, in order; `width` cells per row (the sheet's columns). */
export async function readWorkbook(bytes: Buffer): Promise<ReadSheet[]> {
  const workbook = new ExcelJS.Workbook();
  // exceljs types its input as its own Buffer alias; Node's Buffer is that at run time.
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const width = sheet.columnCount;
    const rows: ReadCell[][] = [];
    for (let r = 1; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const cells: ReadCell[] = [];
      for (let c = 1; c <= width; c++) {
        const cell = row.getCell(c);
        cells.push({ value: cell.value ?? null, formula: cell.type === ExcelJS.ValueType.Formula, fill: fillOf(cell) });
      }
      rows.push(cells);
    }
    return { name: sheet.name, rows };
  });
}

/** The values of a row's cells. */
export const valuesOf = (row: readonly ReadCell[] | undefined): ExcelJS.CellValue[] => (row ?? []).map((c) => c.value);
