/**
 * A table that runs across pages: the header row is drawn again at the top of each page, a
 * row never splits across two, long cells wrap, and marked rows (a reading above the
 * threshold) print bold in the alert colour so they stand out in colour and in black and white.
 */
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
