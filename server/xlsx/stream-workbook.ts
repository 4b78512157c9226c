/**
 * An XLSX workbook written as it goes: each sheet's rows are turned into SpreadsheetML and
 * deflated into the zip while the rows are read, so a sheet of any length costs one batch of
 * memory, and the first bytes reach the client at once. exceljs's "streaming" WorkbookWriter
 * keeps nearly the whole file until its commit (its first byte comes at the end, and its memory
 * grows with the rows), which is why the parts are written here (OOXML, ECMA-376 part 1).
 *
 * Text cells are inline strings: they are never formulas, whatever they begin with ('=', '+',
 * '-', '@'), and text columns carry the Text number format ('@'), so a spreadsheet keeps them
 * text when a person edits the cell.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';

export interface SheetColumn {
  header: string;
  /** Characters of the column's width. */
  width: number;
  /** Text-formatted column (number format '@'); numbers in it are still written as numbers. */
  text?: boolean;
  /** Dates given as 'YYYY-MM-DD' are written as Excel dates (yyyy-mm-dd), so they sort and filter. */
  date?: boolean;
  /** Shares given as 0-1 numbers show as percentages (0.0%); the cell keeps the number. */
  percent?: boolean;
}

export interface SheetOptions {
  /** An autofilter over the header and every row (default on); off for a sheet of totals. */
  autoFilter?: boolean;
}

export type CellValue = string | number | null | undefined;

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * cellXfs of styles.xml, by index. A highlighted row (an overdue curve, say) keeps each cell's
 * own format under a light red fill (HIGHLIGHTED).
 */
const STYLE = { normal: 0, text: 1, date: 2, header: 6, percent: 7 } as const;
const HIGHLIGHTED: Record<number, number> = { [STYLE.normal]: 3, [STYLE.text]: 4, [STYLE.date]: 5, [STYLE.percent]: 8 };
const DATE_FORMAT_ID = 164;
/** Points of one line of the header row (Calibri 11, with room for Devanagari's marks). */
const HEADER_LINE_HEIGHT = 16;
const PERCENT_FORMAT_ID = 165;
const STYLES_XML = `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">\
<numFmts count="2"><numFmt numFmtId="${DATE_FORMAT_ID}" formatCode="yyyy-mm-dd"/><numFmt numFmtId="${PERCENT_FORMAT_ID}" formatCode="0.0%"/></numFmts>\
<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>\
<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>\
<fill><patternFill patternType="solid"><fgColor rgb="FFFFC7CE"/><bgColor indexed="64"/></patternFill></fill></fills>\
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>\
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
<cellXfs count="9"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
<xf numFmtId="${DATE_FORMAT_ID}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
<xf numFmtId="0" fontId="0" fillId="2" borderId="0" xfId="0" applyFill="1"/>\
<xf numFmtId="49" fontId="0" fillId="2" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>\
<xf numFmtId="${DATE_FORMAT_ID}" fontId="0" fillId="2" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/>\
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>\
<xf numFmtId="${PERCENT_FORMAT_ID}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
<xf numFmtId="${PERCENT_FORMAT_ID}" fontId="0" fillId="2" borderId="0" xfId="0" applyNumberFormat="1" applyFill="1"/></cellXfs>\
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>\
</styleSheet>`;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * Excel's serial day number of a 'YYYY-MM-DD' date, or null for anything else, including a
 * day the calendar does not have ('2025-02-30' stays text rather than become 2 March).
 */
export function excelDateSerial(isoDate: string): number | null {
  const match = ISO_DATE.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return (at.getTime() - EXCEL_EPOCH_MS) / 86_400_000;
}

/** Characters XML 1.0 cannot hold at all; a cell keeps the rest of its text. */
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function xmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, '').replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c);
}

/** 0 -> A, 25 -> Z, 26 -> AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A sheet's name as Excel allows it: at most 31 characters, none of []:*?/\ . */
const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet';

interface SheetPart {
  name: string;
  lastColumn: string;
  rows: number;
  autoFilter: boolean;
}

/** The media type of an .xlsx file, for the answers and reports that send one. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export class StreamWorkbook {
  private readonly zip = new ZipFile();
  private readonly sheets: SheetPart[] = [];
  private readonly abort = new AbortController();
  private current: Promise<void> = Promise.resolve();
  /** The finished file, to send as it is made. */
  readonly output: Readable;

  constructor() {
    this.output = this.zip.outputStream;
    // The client went away (or the answer failed): stop making what nobody will read.
    this.output.once('close', () => this.abort.abort());
    this.output.once('error', () => this.abort.abort());
  }

  /** True once the reader of the output has gone. */
  get aborted(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * Opens the next sheet, with its header row frozen and an autofilter over its columns.
   * Write its rows with `writeRows`, then `end()` it before opening another.
   */
  addSheet(name: string, columns: readonly SheetColumn[], options: SheetOptions = {}): SheetWriter {
    const part: SheetPart = { name: sheetName(name), lastColumn: columnLetters(columns.length - 1), rows: 1, autoFilter: options.autoFilter ?? true };
    this.sheets.push(part);
    const stream = new PassThrough();
    this.zip.addReadStream(stream, `xl/worksheets/sheet${this.sheets.length}.xml`);
    const writer = new SheetWriter(stream, part, columns, this.abort.signal);
    this.current = writer.done;
    return writer;
  }

  /** Writes the workbook's own parts after its sheets and ends the file. */
  async finish(): Promise<void> {
    await this.current;
    const sheetList = this.sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
    // The hidden name Excel keeps for each sheet's autofilter range.
    const filters = this.sheets
      .flatMap((s, i) => (s.autoFilter ? [{ s, i }] : []))
      .map(({ s, i }) => `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">'${xmlText(s.name.replace(/'/g, "''"))}'!$A$1:$${s.lastColumn}$${s.rows}</definedName>`)
      .join('');
    this.add(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><bookViews><workbookView/></bookViews><sheets>${sheetList}</sheets><definedNames>${filters}</definedNames></workbook>`,
    );
    const sheetRels = this.sheets
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('');
    this.add(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">${sheetRels}<Relationship Id="rId${this.sheets.length + 1}" Type="${NS_REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    this.add('xl/styles.xml', STYLES_XML);
    this.add('_rels/.rels', `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    const sheetTypes = this.sheets
      .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
      .join('');
    this.add(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>\
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheetTypes}\
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    );
    this.zip.end();
  }

  private add(path: string, xml: string) {
    this.zip.addBuffer(Buffer.from(xml, 'utf8'), path);
  }
}

export class SheetWriter {
  private readonly columnRefs: string[];
  /** Each column's own style (normal, text, date or percent). */
  private readonly columnStyle: number[];
  private resolveDone: () => void = () => undefined;
  /** Settles when the sheet's part is complete. */
  readonly done = new Promise<void>((resolve) => {
    this.resolveDone = resolve;
  });

  constructor(
    private readonly stream: PassThrough,
    private readonly part: SheetPart,
    columns: readonly SheetColumn[],
    private readonly signal: AbortSignal,
  ) {
    this.columnRefs = columns.map((_, i) => columnLetters(i));
    this.columnStyle = columns.map((c) => (c.date ? STYLE.date : c.text ? STYLE.text : c.percent ? STYLE.percent : STYLE.normal));
    const cols = columns
      .map((c, i) => {
        const style = this.columnStyle[i] ?? STYLE.normal;
        return `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"${style === STYLE.normal ? '' : ` style="${style}"`}/>`;
      })
      .join('');
    const header = columns.map((c, i) => `<c r="${this.columnRefs[i]}1" t="inlineStr" s="${STYLE.header}"><is><t>${xmlText(c.header)}</t></is></c>`).join('');
    // Header cells wrap (a bilingual title, "कर्व नंबर / Curve Number", is longer than its
    // column's values): a header longer than its column gets a row of two lines.
    const wraps = columns.some((c) => c.header.length > c.width);
    this.stream.write(
      `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheetViews><sheetView workbookViewId="0">\
<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>\
<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1"${wraps ? ` ht="${2 * HEADER_LINE_HEIGHT}" customHeight="1"` : ''}>${header}</row>`,
    );
  }

  /**
   * Appends rows; resolves when the reader has taken enough that the next batch may be made.
   * `highlighted[i]` fills row i light red (overdue items in a report).
   */
  async writeRows(rows: readonly (readonly CellValue[])[], highlighted?: readonly boolean[]): Promise<void> {
    this.signal.throwIfAborted();
    let xml = '';
    rows.forEach((values, index) => {
      const r = ++this.part.rows;
      const marked = highlighted?.[index] ?? false;
      xml += `<row r="${r}">`;
      for (let i = 0; i < this.columnRefs.length; i++) {
        const own = this.columnStyle[i] ?? STYLE.normal;
        const style = marked ? (HIGHLIGHTED[own] ?? own) : own;
        const s = style === STYLE.normal ? '' : ` s="${style}"`;
        const ref = `${this.columnRefs[i]}${r}`;
        let value = values[i];
        if (value === null || value === undefined || value === '') {
          // An empty cell of a highlighted row still carries the fill.
          if (marked) xml += `<c r="${ref}"${s}/>`;
          continue;
        }
        if (own === STYLE.date && typeof value === 'string') value = excelDateSerial(value) ?? value;
        if (typeof value === 'number' && Number.isFinite(value)) {
          xml += `<c r="${ref}"${s}><v>${value}</v></c>`;
        } else {
          xml += `<c r="${ref}" t="inlineStr"${s}><is><t xml:space="preserve">${xmlText(String(value))}</t></is></c>`;
        }
      }
      xml += '</row>';
    });
    if (!this.stream.write(xml)) await once(this.stream, 'drain', { signal: this.signal });
  }

  /** Closes the sheet: its autofilter covers the header and every row written. */
  end(): void {
    const filter = this.part.autoFilter ? `<autoFilter ref="A1:${this.part.lastColumn}${this.part.rows}"/>` : '';
    this.stream.end(`</sheetData>${filter}</worksheet>`);
    this.stream.once('end', () => this.resolveDone());
    this.stream.once('close', () => this.resolveDone());
  }
}
