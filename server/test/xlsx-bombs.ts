/**
 * Workbooks that unpack to far more than their size, made in a second or two: the sheet's XML
 * is written here and deflated as it is made (exceljs's writer would take minutes for 600,000
 * rows), and a zip's directory can be made to understate a part's size.
 */
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
export const SHEET_PART = 'xl/worksheets/sheet1.xml';
const ROWS_AT_A_TIME = 5000;

export interface WorkbookXml {
  /** The <row> elements of the one sheet, in pieces. */
  rows: Iterable<string>;
  /** What follows <sheetData> in the sheet: merged cells, data validations ... */
  afterRows?: string;
  /** <definedNames> of the workbook. */
  definedNames?: string;
  /** <cols> of the sheet. */
  cols?: string;
}

/** An XLSX of one sheet, from its XML. */
export async function workbookOf({ rows, afterRows = '', definedNames = '', cols = '' }: WorkbookXml): Promise<Buffer> {
  const zip = new ZipFile();
  const add = (path: string, xml: string) => zip.addBuffer(Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`), path);
  add(
    '[Content_Types].xml',
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
<Override PartName="/${SHEET_PART}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  );
  add('_rels/.rels', `<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  add('xl/workbook.xml', `<workbook xmlns="${NS}" xmlns:r="${NS_REL}"><sheets><sheet name="Curves" sheetId="1" r:id="rId1"/></sheets>${definedNames}</workbook>`);
  add('xl/_rels/workbook.xml.rels', `<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`);
  function* sheet() {
    yield `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="${NS}">${cols}<sheetData>`;
    yield* rows;
    yield `</sheetData>${afterRows}</worksheet>`;
  }
  // The fastest deflate: the rows repeat, so it still packs hundreds of MB into a few.
  zip.addReadStream(Readable.from(sheet()), SHEET_PART, { compressionLevel: 1 });
  const bytes = buffer(zip.outputStream);
  zip.end();
  return bytes;
}

/** Rows of cells that all hold 1; only each row's first cell names its address, as a sheet may. */
export function* numberRows(rows: number, cellsPerRow: number): Generator<string> {
  const rest = '<c><v>1</v></c>'.repeat(cellsPerRow - 1);
  for (let first = 1; first <= rows; first += ROWS_AT_A_TIME) {
    let xml = '';
    for (let r = first; r < Math.min(first + ROWS_AT_A_TIME, rows + 1); r++) xml += `<row r="${r}"><c r="A${r}"><v>1</v></c>${rest}</row>`;
    yield xml;
  }
}

/** Rows of inline text (at most 26 columns), from the first row (the header) on. */
export function* textRows(rows: Iterable<readonly string[]>): Generator<string> {
  let r = 0;
  for (const cells of rows) {
    r++;
    const xml = cells.map((text, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${text}</t></is></c>`);
    yield `<row r="${r}">${xml.join('')}</row>`;
  }
}

/** The zip with its central directory stating `size` as `part`'s unpacked size. */
export function understateSize(zip: Buffer, part: string, size: number): Buffer {
  const copy = Buffer.from(zip);
  const name = Buffer.from(part);
  const header = Buffer.from('PK\x01\x02', 'latin1');
  for (let at = copy.indexOf(header); at >= 0; at = copy.indexOf(header, at + header.length)) {
    const nameLength = at + 46 <= copy.length ? copy.readUInt16LE(at + 28) : -1;
    if (nameLength === name.length && copy.subarray(at + 46, at + 46 + nameLength).equals(name)) {
      copy.writeUInt32LE(size, at + 24);
      return copy;
    }
  }
  throw new Error(`${part} is not in the zip`);
}
