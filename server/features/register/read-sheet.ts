/**
 * Reads an uploaded sheet, CSV or XLSX, into its header and its rows of cell texts. Row
 * numbers are a spreadsheet's: the header is row 1, and a CSV record spanning several lines
 * (a quoted line break) is one row, as a spreadsheet program shows it.
 */
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { AppError } from '../../app-error.js';
import { checkWorkbook, WORKBOOK_LIMITS, type WorkbookProblem } from './workbook-check.js';

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

/**
 * Papa reads the text in pieces of this size, so that it can stop early: it guesses the line
 * ending and the delimiter from the first piece, and looks at no more than 1 MB for them anyway.
 */
const CSV_PIECE_CHARS = 1024 * 1024;
const UNREADABLE_XLSX = 'The file looks like an XLSX workbook but cannot be read: it may be damaged or password-protected';
const MB = 1024 * 1024;

const fileError = (message: string) => new AppError('IMPORT_FILE_INVALID', message, { fields: { file: message } });
const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/**
 * Rows are read up to one past the cap: a file just over it is named by its count, and reading
 * stops at the next row, so a file of 600,000 rows costs no more than that to refuse.
 */
function tooManyRows(maxRows: number, count?: number): AppError {
  const rows = count === undefined ? `more than ${maxRows}` : String(count);
  return new AppError('VALIDATION_FAILED', `The file has ${rows} data rows; at most ${maxRows} are imported at once`, {
    fields: { file: `at most ${maxRows} data rows` },
  });
}

export async function readSheet(bytes: Buffer, maxRows: number): Promise<Sheet> {
  if (bytes.length === 0) throw fileError('The file is empty');
  if (bytes.subarray(0, 4).equals(OLE_MAGIC)) {
    throw fileError('Excel 97-2003 (.xls) files are not read: save the sheet as .xlsx or as CSV UTF-8');
  }
  const sheet = bytes.subarray(0, 4).equals(ZIP_MAGIC) ? await readXlsx(bytes, maxRows) : readCsv(bytes, maxRows);
  const rows = sheet.rows.filter((row) => !isBlank(row.cells));
  if (rows.length > maxRows) throw tooManyRows(maxRows, rows.length);
  return { ...sheet, rows };
}

function readCsv(bytes: Buffer, maxRows: number): Sheet {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fileError('The file is neither an XLSX workbook nor UTF-8 text: save it as .xlsx or as "CSV UTF-8"');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let header: string[] = [];
  const rows: SheetRow[] = [];
  let records = 0;
  let fault: string | undefined;
  let tooMany = false;
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: false,
    chunkSize: CSV_PIECE_CHARS,
    step: ({ data: cells, errors }, parser) => {
      // A record's number as a spreadsheet shows it: one record spanning lines is one row.
      const number = ++records;
      // A delimiter that cannot be guessed (a one-column file) falls back to the comma: not a fault.
      const quotes = errors.find((e) => e.type === 'Quotes');
      if (quotes) {
        fault = `Row ${number}: ${quotes.message}`;
        parser.abort();
      } else if (number === 1) {
        header = cells.map((h) => h.trim());
      } else if (!isBlank(cells)) {
        if (rows.length > maxRows) {
          tooMany = true;
          parser.abort();
        } else {
          rows.push({ number, cells });
        }
      }
    },
  });
  if (fault !== undefined) throw fileError(fault);
  if (tooMany) throw tooManyRows(maxRows);
  return { format: 'csv', header, rows };
}

/** The answer to a workbook past a limit, before exceljs has read it. */
function workbookError(problem: WorkbookProblem, maxRows: number): AppError {
  const tooLarge = (what: string, remedy = 'split it into smaller sheets') =>
    new AppError('IMPORT_FILE_TOO_LARGE', `The workbook ${what}; ${remedy}`);
  const { parts, unpackedBytes, elements, cells, merges } = WORKBOOK_LIMITS;
  switch (problem) {
    case 'sheetRows':
      return tooManyRows(maxRows);
    case 'parts':
      return tooLarge(`has more than ${parts} parts`, 'save the register in a workbook of its own, or as CSV UTF-8');
    case 'unpackedBytes':
      return tooLarge(`unpacks to more than ${unpackedBytes / MB} MB`);
    case 'elements':
      return tooLarge(`holds more than ${elements} XML elements (cells, values, styles ...)`);
    case 'cells':
      return tooLarge(
        `spans more than ${cells} cells (rows to their last cell, merged cells, data validation and named ranges)`,
        'remove data validation from whole columns, or save the sheet as CSV UTF-8',
      );
    case 'merges':
      return tooLarge(`has more than ${merges} merged ranges`, 'unmerge them, or save the sheet as CSV UTF-8');
    case 'sizeMismatch':
      return fileError('The file looks like an XLSX workbook but cannot be read: a part of it unpacks to more bytes than the workbook states');
    case 'unreadable':
      return fileError(UNREADABLE_XLSX);
  }
}

async function readXlsx(bytes: Buffer, maxRows: number): Promise<Sheet> {
  // The header, and one row past the cap as a CSV is read.
  const problem = await checkWorkbook(bytes, { ...WORKBOOK_LIMITS, sheetRows: maxRows + 2 });
  if (problem) throw workbookError(problem, maxRows);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as its own Buffer alias; Node's Buffer is that at run time.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw fileError(UNREADABLE_XLSX);
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
