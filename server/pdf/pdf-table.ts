/**
 * A table that runs across pages: the header row is drawn again at the top of each page, a
 * row never splits across two, long cells wrap, and marked rows (a reading above the
 * threshold) print bold in the alert colour so they stand out in colour and in black and white.
 */
import { baseFontName, type Weight } from './fonts.js';
import { COLORS, type PdfReport } from './pdf-report.js';

export interface TableColumn {
  header: string;
  /** Share of the table's width, relative to the other columns. */
  weight: number;
  align?: 'left' | 'right' | 'center';
}

const PADDING = 3;

export class PdfTable {
  private readonly widths: number[];
  private headerOnPage = -1;

  constructor(
    private readonly report: PdfReport,
    private readonly columns: readonly TableColumn[],
    private readonly size = 8,
  ) {
    const total = columns.reduce((sum, c) => sum + c.weight, 0);
    this.widths = columns.map((c) => (report.width * c.weight) / total);
  }

  private heightOf(cells: readonly string[], bold: boolean): number {
    return Math.max(...cells.map((cell, i) => this.report.measure(cell, { size: this.size, weight: bold ? 'bold' : 'regular', width: this.widths[i]! - 2 * PADDING }))) + 2 * PADDING;
  }

  private drawCells(cells: readonly string[], y: number, style: { bold: boolean; color: string }): void {
    let x = this.report.left;
    cells.forEach((cell, i) => {
      const width = this.widths[i]!;
      this.report.text(cell, x + PADDING, y + PADDING, { size: this.size, weight: style.bold ? 'bold' : 'regular', color: style.color, width: width - 2 * PADDING, align: this.columns[i]!.align ?? 'left' });
      x += width;
    });
  }

  private drawHeader(): void {
    const r = this.report;
    const cells = this.columns.map((c) => c.header);
    const height = this.heightOf(cells, true);
    r.doc.save().rect(r.left, r.y, r.width, height).fill(COLORS.band).restore();
    this.drawCells(cells, r.y, { bold: true, color: COLORS.ink });
    r.y += height;
    r.rule();
    this.headerOnPage = r.pageCount;
  }

  /** Adds a row at the report's cursor, on a new page (with the header) when it does not fit. */
  row(cells: readonly string[], options: { marked?: boolean } = {}): void {
    const r = this.report;
    const height = this.heightOf(cells, options.marked ?? false);
    const headerHeight = this.headerOnPage === r.pageCount ? 0 : this.heightOf(this.columns.map((c) => c.header), true);
    r.ensure(headerHeight + height);
    if (this.headerOnPage !== r.pageCount) this.drawHeader();
    this.drawCells(cells, r.y, { bold: options.marked ?? false, color: options.marked ? COLORS.alert : COLORS.ink });
    r.y += height;
    r.rule(r.y, '#e3e8ee');
  }
}

/**
 * The widths of a table's columns: each gets room by how much its cells hold on average, so a
 * column of short words stays narrow and one of sentences gets the width, but never less than
 * its longest word (a word is never cut; the 1 is a little to spare). The widths serve as
 * the columns' weights.
 */
export function fitColumnWidths(pdf: PdfReport, header: readonly string[], rows: readonly string[][], size: number): number[] {
  const doc = pdf.doc;
  const wordWidth = (text: string, weight: Weight) =>
    Math.max(0, ...text.split(/\s+/).map((word) => doc.font(baseFontName(weight)).fontSize(size).widthOfString(word)));
  const minimum = header.map(
    (h, i) => Math.max(wordWidth(h, 'bold'), ...rows.map((r) => wordWidth(r[i] ?? '', 'regular'))) + 2 * PADDING + 1,
  );
  const share = header.map((h, i) => {
    const cells = [h, ...rows.map((r) => r[i] ?? '')];
    return Math.max(cells.reduce((sum, c) => sum + c.length, 0) / cells.length, 1);
  });
  // Columns whose share would be below their minimum get the minimum; the rest share what is left.
  const fixed = new Set<number>();
  for (;;) {
    const left = pdf.width - [...fixed].reduce((sum, i) => sum + minimum[i]!, 0);
    const free = share.reduce((sum, s, i) => (fixed.has(i) ? sum : sum + s), 0);
    const widths = share.map((s, i) => (fixed.has(i) ? minimum[i]! : (left * s) / free));
    const short = widths.findIndex((w, i) => !fixed.has(i) && w < minimum[i]!);
    if (short === -1 || fixed.size === header.length - 1) return widths.map((w) => Math.max(w, 1));
    fixed.add(short);
  }
}
