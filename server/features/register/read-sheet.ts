/**
 * Reads an uploaded sheet, CSV or XLSX, into its header and its rows of cell texts. Row
 * numbers are a spreadsheet's: the header is row 1, and a CSV record spanning several lines
 * (a quoted line break) is one row, as a spreadsheet program shows it.
 */
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { AppError } from '../../app-error.js';

export interface SheetRow {
  /** The row's number as a spreadsheet shows it (the header is 1). */
  number: number;
  cells: string[];
  /** Cells holding an error value (#N/A, #REF! ...) by column index. */
  cellErrors?: Map<number, string>;
}

export interface Sheet {
  format: 'csv' | 'xlsx';
  header: string[];
  rows: SheetRow[];
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

const fileError = (message: string) => new AppError('IMPORT_FILE_INVALID', message, { fields: { file: message } });

export async function readSheet(bytes: Buffer, maxRows: number): Promise<Sheet> {
  if (bytes.length === 0) throw fileError('The file is empty');
  if (bytes.subarray(0, 4).equals(OLE_MAGIC)) {
    throw fileError('Excel 97-2003 (.xls) files are not read: save the sheet as .xlsx or as CSV UTF-8');
  }
  const sheet = bytes.subarray(0, 4).equals(ZIP_MAGIC) ? await readXlsx(bytes) : readCsv(bytes);
  const rows = sheet.rows.filter((row) => row.cells.some((cell) => cell.trim() !== ''));
  if (rows.length > maxRows) {
    throw new AppError('VALIDATION_FAILED', `The file has ${rows.length} data rows; at most ${maxRows} are imported at once`, {
      fields: { file: `at most ${maxRows} data rows` },
    });
  }
  return { ...sheet, rows };
}

function readCsv(bytes: Buffer): Sheet {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fileError('The file is neither an XLSX workbook nor UTF-8 text: save it as .xlsx or as "CSV UTF-8"');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false });
  // A delimiter that cannot be guessed (a one-column file) falls back to the comma: not a fault.
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw fileError(`Row ${(fatal.row ?? 0) + 1}: ${fatal.message}`);
  const [header = [], ...records] = parsed.data;
  return {
    format: 'csv',
    header: header.map((h) => h.trim()),
    rows: records.map((cells, index) => ({ number: index + 2, cells })),
  };
}

async function readXlsx(bytes: Buffer): Promise<Sheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as its own Buffer alias; Node's Buffer is that at run time.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw fileError('The file looks like an XLSX workbook but cannot be read: it may be damaged or password-protected');
  }
  const worksheet = workbook.worksheets[0];
  if (!worksheet) throw fileError('The workbook has no sheet');
  let header: string[] = [];
  const rows: SheetRow[] = [];
  worksheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    const cellErrors = new Map<number, string>();
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      const value = cellText(cell.value);
      if (typeof value === 'object') cellErrors.set(column - 1, value.error);
      cells[column - 1] = typeof value === 'string' ? value : '';
    });
    for (let i = 0; i < cells.length; i++) cells[i] ??= '';
    if (number === 1) header = cells.map((h) => h.trim());
    else rows.push({ number, cells, ...(cellErrors.size > 0 ? { cellErrors } : {}) });
  });
  return { format: 'xlsx', header, rows };
}

/** A cell's value as the text a person sees, or the error value it holds. */
function cellText(value: ExcelJS.CellValue): string | { error: string } {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('error' in value) return { error: String(value.error) };
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    // A formula counts by the value it shows; the formula itself is never stored.
    const result = (value as { result?: ExcelJS.CellValue }).result;
    return result === undefined ? '' : cellText(result);
  }
  if ('text' in value) return String(value.text);
  return '';
}
