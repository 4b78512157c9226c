/**
 * An XLSX checked before exceljs reads it. exceljs's `load` unpacks every part whole and builds
 * every cell before a single row can be counted, so a workbook of a few MB that unpacks to
 * gigabytes holds the server for minutes, or ends it. It also makes a cell (or a map entry) for
 * every cell of a merged range, a data validation range and a named range, so a 2 KB workbook
 * naming 'A1:XFD1048576' does the same.
 *
 * Here the zip's directory is read first (how many parts, what sizes they state; nothing is
 * unpacked), then every part is unpacked as a stream, held to the size it states, and read by
 * exceljs's own XML parser as the bytes come, counting what exceljs would build: reading stops
 * at once past a limit. The ranges are measured by exceljs's own address code, so a range is the
 * size here that exceljs would make it.
 */
import { StringDecoder } from 'node:string_decoder';
import colCache from 'exceljs/lib/utils/col-cache.js';
import parseSax, { type SaxEvent, type SaxTag } from 'exceljs/lib/utils/parse-sax.js';
import DefinedNameXform from 'exceljs/lib/xlsx/xform/book/defined-name-xform.js';
import * as yauzl from 'yauzl';

/**
 * About twice the largest register: 20,000 curves as the export writes them unpack to 24 MB in
 * 6 parts, 960,000 XML elements, 720,000 cells spanned (their rows, and the autofilter's range).
 */
export const WORKBOOK_LIMITS = {
  parts: 1000,
  /** Bytes of all parts unpacked, together. */
  unpackedBytes: 128 * 1024 * 1024,
  /** XML elements of all parts: exceljs makes an object of nearly every one. */
  elements: 2_000_000,
  /**
   * Cells made or visited beyond the XML: each row up to its last cell (the reader visits the
   * empty ones between), and every cell of a merged, data-validation, named or column range.
   * One data validation down a whole column (Excel writes 'F2:F1048576') is 1,048,575 of them.
   */
  cells: 2_000_000,
  /** Merged ranges: exceljs checks each against every one before it. */
  merges: 5_000,
};

export interface WorkbookLimits {
  parts: number;
  unpackedBytes: number;
  elements: number;
  cells: number;
  merges: number;
  /** Rows holding a value in any one sheet (exceljs reads every sheet, not only the first). */
  sheetRows: number;
}

/** The limit a workbook is past; `sizeMismatch`: a part unpacks to more than its stated size. */
export type WorkbookProblem = keyof WorkbookLimits | 'sizeMismatch' | 'unreadable';

class SizeMismatch extends Error {}

export async function checkWorkbook(bytes: Buffer, limits: WorkbookLimits): Promise<WorkbookProblem | null> {
  let zip: yauzl.ZipFile;
  try {
    // Names stay bytes: decoding them, yauzl refuses some that exceljs reads ('/xl/workbook.xml').
    // Sizes are held to the stated ones here, to tell a zip that lies from a damaged one.
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: false });
  } catch {
    return 'unreadable';
  }
  try {
    if (zip.entryCount > limits.parts) return 'parts';
    const entries: yauzl.Entry[] = [];
    let stated = 0;
    for await (const entry of zip.eachEntry()) {
      stated += entry.uncompressedSize;
      if (stated > limits.unpackedBytes) return 'unpackedBytes';
      entries.push(entry);
    }
    const totals: Totals = { elements: 0, cells: 0, merges: 0 };
    for (const entry of entries) {
      const problem = await checkPart(zip, entry, new PartCount(totals, limits));
      if (problem) return problem;
    }
    return null;
  } catch {
    return 'unreadable';
  } finally {
    zip.close();
  }
}

/** A part's bytes as they unpack, never more than it states. */
async function* unpacked(zip: yauzl.ZipFile, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > entry.uncompressedSize) throw new SizeMismatch();
    yield chunk;
  }
}

async function* utf8(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) yield decoder.write(chunk);
  yield decoder.end();
}

async function checkPart(zip: yauzl.ZipFile, entry: yauzl.Entry, count: PartCount): Promise<WorkbookProblem | null> {
  try {
    for await (const events of parseSax(utf8(unpacked(zip, entry)))) {
      const problem = count.add(events);
      if (problem) return problem;
    }
    return count.end();
  } catch (error) {
    if (!(error instanceof SizeMismatch)) {
      // Not XML (a picture), or not well-formed: exceljs keeps it as bytes, or fails on it as the
      // parser did here. Either way it must unpack to no more than it states.
      try {
        for await (const _chunk of unpacked(zip, entry)) {
          // Only its size matters.
        }
        return null;
      } catch (again) {
        if (!(again instanceof SizeMismatch)) throw again;
      }
    }
    return 'sizeMismatch';
  }
}

interface Totals {
  elements: number;
  cells: number;
  merges: number;
}

/** The cells exceljs makes of a range ('A1:C3' makes 9); one it cannot read makes exceljs fail, or is skipped. */
function rangeCells(ref: string): number {
  try {
    const { top, left, bottom, right } = colCache.decodeEx(ref);
    if (top === undefined || left === undefined || bottom === undefined || right === undefined) return 1;
    const cells = (bottom - top + 1) * (right - left + 1);
    return Number.isFinite(cells) ? cells : 0;
  } catch {
    return 0;
  }
}

/** A cell's column, as exceljs reads its `r`; past XFD exceljs fails, so it counts as the last. */
function columnOf(ref: string): number {
  try {
    return colCache.decodeAddress(ref).col ?? 0;
  } catch {
    return 16_384;
  }
}

/** Counts one part's elements and cells (into the workbook's totals) and, in a sheet, its rows that hold a value. */
class PartCount {
  private valuedRows = 0;
  /** The open row: its last cell's column so far, and whether it holds a value. */
  private row: { column: number; valued: boolean } | null = null;
  private inValue = false;
  private definedName: DefinedNameXform | null = null;

  constructor(
    private readonly totals: Totals,
    private readonly limits: WorkbookLimits,
  ) {}

  add(events: readonly SaxEvent[]): WorkbookProblem | null {
    for (const event of events) {
      const problem =
        event.eventType === 'opentag' ? this.open(event.value) : event.eventType === 'text' ? this.text(event.value) : this.close(event.value);
      if (problem) return problem;
    }
    return null;
  }

  end(): WorkbookProblem | null {
    return this.endRow();
  }

  private open(tag: SaxTag): WorkbookProblem | null {
    if (++this.totals.elements > this.limits.elements) return 'elements';
    const { name, attributes } = tag;
    // A <definedName> is handed every tag and text inside it, as exceljs hands them on; what
    // is inside is counted all the same.
    if (name === 'definedName') this.definedName ??= new DefinedNameXform();
    this.definedName?.parseOpen(tag);
    switch (name) {
      case 'row': {
        const problem = this.endRow();
        this.row = { column: 0, valued: false };
        return problem;
      }
      case 'c':
        // A cell without `r` is the one after the cell before it.
        if (this.row) this.row.column = attributes.r === undefined ? this.row.column + 1 : Math.max(this.row.column, columnOf(attributes.r));
        return null;
      case 'v':
      case 't':
        this.inValue = true;
        return null;
      case 'mergeCell':
        if (++this.totals.merges > this.limits.merges) return 'merges';
        return this.addCells(rangeCells(attributes.ref ?? ''));
      case 'dataValidation':
        // As exceljs reads `sqref`: ranges and single cells, apart by spaces.
        return this.addCells((attributes.sqref ?? '').split(/\s+/g).reduce((sum, ref) => sum + (ref.includes(':') ? rangeCells(ref) : 1), 0));
      case 'col':
        // exceljs makes every column up to `max`.
        return this.addCells(Number.parseInt(attributes.max ?? '0', 10) || 0);
      default:
        return null;
    }
  }

  private text(text: string): WorkbookProblem | null {
    this.definedName?.parseText(text);
    if (!this.inValue || text === '' || !this.row || this.row.valued) return null;
    // A value, or inline text; an empty <v></v> (a formula showing "") leaves the row blank.
    this.row.valued = true;
    return ++this.valuedRows > this.limits.sheetRows ? 'sheetRows' : null;
  }

  private close(tag: SaxTag): WorkbookProblem | null {
    if (tag.name === 'v' || tag.name === 't') this.inValue = false;
    if (!this.definedName || this.definedName.parseClose(tag.name)) return null;
    const { name, ranges } = this.definedName.model;
    this.definedName = null;
    // A print area or print titles become the sheet's page setup, not cells.
    if (name === '_xlnm.Print_Area' || name === '_xlnm.Print_Titles') return null;
    return this.addCells(ranges.reduce((sum, ref) => sum + rangeCells(ref), 0));
  }

  private endRow(): WorkbookProblem | null {
    const column = this.row?.column ?? 0;
    this.row = null;
    return this.addCells(column);
  }

  private addCells(cells: number): WorkbookProblem | null {
    this.totals.cells += cells;
    return this.totals.cells > this.limits.cells ? 'cells' : null;
  }
}
