import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { columnLetters, StreamWorkbook } from './stream-workbook.js';

const COLUMNS = [
  { header: 'No', width: 6 },
  { header: 'Name', width: 20, text: true },
];

describe('StreamWorkbook', () => {
  it('names columns as spreadsheets do', () => {
    expect([0, 17, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'R', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('writes sheets a reader opens, with numbers, text that looks like formulas, and characters XML cannot hold', async () => {
    const book = new StreamWorkbook();
    const bytes = buffer(book.output);
    const first = book.addSheet('Curve Details', COLUMNS);
    await first.writeRows([
      [1, '=HYPERLINK("http://x","y")'],
      [2, 'रतलाम <&> "jn"\nline two'],
      [null, 'bell\u0007gone'],
    ]);
    first.end();
    const second = book.addSheet('Odd: name/with*chars?', COLUMNS);
    await second.writeRows([[3, '007']]);
    second.end();
    await book.finish();

    const workbook = XLSX.read(await bytes, { type: 'buffer' });
    expect(workbook.SheetNames).toEqual(['Curve Details', 'Odd  name with chars ']);
    const sheet = workbook.Sheets['Curve Details']!;
    expect(XLSX.utils.sheet_to_json(sheet, { header: 1 })).toEqual([
      ['No', 'Name'],
      [1, '=HYPERLINK("http://x","y")'],
      [2, 'रतलाम <&> "jn"\nline two'],
      // An empty cell stays empty; the bell character XML cannot hold is dropped.
      [undefined, 'bellgone'],
    ]);
    expect(sheet.B2?.t).toBe('s');
    expect(sheet.B2?.f).toBeUndefined();
    expect(XLSX.utils.sheet_to_json(workbook.Sheets[workbook.SheetNames[1]!]!, { header: 1 })).toEqual([['No', 'Name'], [3, '007']]);
  });

  it('stops making rows once its reader has gone, instead of buffering them for nobody', async () => {
    const book = new StreamWorkbook();
    const read = buffer(book.output).catch(() => null);
    const sheet = book.addSheet('Big', COLUMNS);
    await sheet.writeRows([[1, 'first']]);
    book.output.destroy();
    await read;
    expect(book.aborted).toBe(true);
    await expect(sheet.writeRows([[2, 'second']])).rejects.toThrow();
  });
});
