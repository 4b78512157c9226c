/**
 * The page furniture every PDF report shares (docs/architecture.md, 'Reports'): A4, the embedded Unicode
 * fonts, a header with the report's title and ID on every page, a footer with who made it and
 * "Page N of M", text in any script, and a cursor that starts a new page when the next block
 * does not fit. The document streams out as it is written, so a report of a thousand photos
 * never sits whole in memory; `drained()` lets the writer wait for the reader.
 */
import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import { baseAscent, baseFontName, fontFaces, runsOf, type Weight } from './fonts.js';

export const COLORS = {
  ink: '#1a1a1a',
  muted: '#5c6670',
  rule: '#c9d1d9',
  band: '#eef2f6',
  alert: '#b3261e',
  accent: '#1f5fa8',
} as const;

export interface TextStyle {
  size?: number;
  weight?: Weight;
  color?: string;
  align?: 'left' | 'center' | 'right';
  width?: number;
}

export interface PdfReportOptions {
  title: string;
  /** Shown at the top right of every page, e.g. the report ID. */
  reference: string;
  /** Shown at the bottom left of every page, e.g. who made it and when. */
  madeBy: string;
  landscape?: boolean;
  /** Document properties, read by PDF viewers and `pdfinfo`. */
  subject: string;
  author: string;
}

const MARGIN = 36;
const HEADER_HEIGHT = 22;
const FOOTER_HEIGHT = 18;
/** Above this much unread output the writer waits for the reader (the BlobStore). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export class PdfReport {
  readonly doc: PDFKit.PDFDocument;
  /** The PDF's bytes as they are made. */
  readonly output = new PassThrough();
  /** Where the next block goes. */
  y: number;

  constructor(private readonly options: PdfReportOptions) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: options.landscape ? 'landscape' : 'portrait',
      margin: MARGIN,
      // Pages stay open until the page count is known, for their "Page N of M"; photos are
      // written out as soon as they are placed (see fixTotalPages).
      bufferPages: true,
      autoFirstPage: true,
      info: { Title: options.title, Subject: options.subject, Author: options.author, Creator: 'HKMI field service' },
      pdfVersion: '1.7',
    });
    for (const face of fontFaces()) this.doc.registerFont(face.name, face.file);
    this.doc.pipe(this.output);
    this.doc.once('error', (error: Error) => this.output.destroy(error));
    this.y = this.top;
  }

  get left(): number {
    return MARGIN;
  }
  get width(): number {
    return this.doc.page.width - 2 * MARGIN;
  }
  get right(): number {
    return this.doc.page.width - MARGIN;
  }
  get top(): number {
    return MARGIN + HEADER_HEIGHT;
  }
  get bottom(): number {
    return this.doc.page.height - MARGIN - FOOTER_HEIGHT;
  }
  /** Pages so far, written out or not. */
  get pageCount(): number {
    const range = this.doc.bufferedPageRange();
    return range.start + range.count;
  }

  newPage(): void {
    // Once the page count is known, the pages before this one are complete: write them out,
    // so the document never holds more than the page being filled.
    if (this.totalPages !== undefined) this.doc.flushPages();
    this.doc.addPage();
    this.y = this.top;
    if (this.totalPages !== undefined) this.furnish(this.pageCount - 1);
  }

  /**
   * Says how many pages the document will have once the pages so far are furnished, when the
   * rest can be counted ahead (a record report: two records to a page). From here on, each
   * page is finished and written out as the next one starts, instead of all at the end: the
   * end of a thousand-photo report costs no long pause, and no page waits in memory.
   */
  fixTotalPages(total: number): void {
    this.totalPages = total;
    const range = this.doc.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index += 1) {
      this.doc.switchToPage(index);
      this.furnish(index);
    }
    this.doc.flushPages();
  }

  private totalPages: number | undefined;

  /** The current page's header and footer; `index` counts from 0. */
  private furnish(index: number): void {
    const total = this.totalPages ?? this.pageCount;
    // Text near the bottom margin would start a new page; lift the margins while writing.
    const margins = this.doc.page.margins;
    const { x, y } = this.doc;
    this.doc.page.margins = { ...margins, top: 0, bottom: 0 };
    const half = (this.doc.page.width - 2 * MARGIN) / 2;
    this.text(this.options.title, MARGIN, MARGIN - 4, { size: 8, weight: 'bold', color: COLORS.muted, width: half });
    this.text(this.options.reference, MARGIN + half, MARGIN - 4, { size: 8, color: COLORS.muted, width: half, align: 'right' });
    this.rule(MARGIN + HEADER_HEIGHT - 8);
    const footerY = this.doc.page.height - MARGIN - 8;
    this.text(this.options.madeBy, MARGIN, footerY, { size: 7.5, color: COLORS.muted, width: half * 1.4 });
    this.text(`Page ${index + 1} of ${total}`, MARGIN + half, footerY, { size: 7.5, color: COLORS.muted, width: half, align: 'right' });
    this.doc.page.margins = margins;
    this.doc.x = x;
    this.doc.y = y;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.y + height > this.bottom && this.y > this.top) this.newPage();
  }

  /** The height `text` takes at `style` in `width`. */
  measure(text: string, style: TextStyle & { width: number }): number {
    const size = style.size ?? 9;
    return this.doc
      .font(baseFontName(style.weight ?? 'regular'))
      .fontSize(size)
      .heightOfString(text === '' ? ' ' : text, { width: style.width, lineGap: 1 });
  }

  /**
   * Draws `text` with its top at (x, y), wrapping within `style.width`, each run of a script
   * in a font that has it. (`measure` gives the height it takes, when a caller needs it.)
   */
  text(text: string, x: number, y: number, style: TextStyle = {}): void {
    const size = style.size ?? 9;
    const weight = style.weight ?? 'regular';
    const width = style.width ?? this.right - x;
    const runs = runsOf(text, weight);
    if (runs.length === 0) return;
    this.doc.fontSize(size).fillColor(style.color ?? COLORS.ink);
    const baseline = y + baseAscent(weight) * size;
    // Most report text is one short line: placed directly, it skips pdfkit's line wrapper,
    // which is most of the cost of a text call (a report of a thousand records makes ~30,000).
    const lineWidth = text.includes('\n') ? Infinity : runs.reduce((sum, run) => sum + this.doc.font(run.font).widthOfString(run.text), 0);
    if (lineWidth <= width) {
      const align = style.align ?? 'left';
      const start = align === 'right' ? x + width - lineWidth : align === 'center' ? x + (width - lineWidth) / 2 : x;
      runs.forEach((run, index) => {
        this.doc.font(run.font);
        // Without a width pdfkit moves x along after each run, so the next follows on the line.
        if (index === 0) this.doc.text(run.text, start, baseline, { lineBreak: false, baseline: 'alphabetic' });
        else this.doc.text(run.text, { lineBreak: false, baseline: 'alphabetic' });
      });
      return;
    }
    // Alphabetic baseline: runs of different fonts (whose ascenders differ) share one line.
    const options = { width, align: style.align ?? 'left', lineGap: 1, baseline: 'alphabetic' as const };
    runs.forEach((run, index) => {
      this.doc.font(run.font);
      const continued = index < runs.length - 1;
      if (index === 0) this.doc.text(run.text, x, baseline, { ...options, continued });
      else this.doc.text(run.text, { ...options, continued });
    });
  }


  /** A block of text at the cursor, across the page's width; moves the cursor below it. */
  paragraph(text: string, style: TextStyle = {}, gapAfter = 4): void {
    const width = style.width ?? this.width;
    const height = this.measure(text, { ...style, width });
    this.ensure(height);
    this.text(text, this.left, this.y, { ...style, width });
    this.y += height + gapAfter;
  }

  heading(text: string, size = 13): void {
    this.ensure(size * 3);
    this.y += 4;
    this.paragraph(text, { size, weight: 'bold', color: COLORS.accent }, 4);
  }

  /** Label and value pairs in `columns` columns, row by row. */
  facts(pairs: readonly (readonly [string, string])[], columns = 2, size = 9): void {
    const gap = 12;
    const columnWidth = (this.width - gap * (columns - 1)) / columns;
    const labelWidth = Math.min(110, columnWidth * 0.4);
    for (let i = 0; i < pairs.length; i += columns) {
      const row = pairs.slice(i, i + columns);
      const height = Math.max(...row.map(([, value]) => this.measure(value, { size, width: columnWidth - labelWidth })));
      this.ensure(height);
      row.forEach(([label, value], column) => {
        const x = this.left + column * (columnWidth + gap);
        this.text(label, x, this.y, { size, color: COLORS.muted, width: labelWidth - 4 });
        this.text(value, x + labelWidth, this.y, { size, width: columnWidth - labelWidth });
      });
      this.y += height + 3;
    }
  }

  rule(y = this.y, color: string = COLORS.rule): void {
    this.doc.save().moveTo(this.left, y).lineTo(this.right, y).lineWidth(0.5).strokeColor(color).stroke().restore();
  }

  /** Resolves once the reader has taken most of what was written; yields to other work too. */
  async drained(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.doc.readableLength + this.output.readableLength <= MAX_BUFFERED_BYTES) return;
    // Polled rather than listened for: a 'data' listener would switch the output to flowing
    // mode under the reader that iterates it.
    while (!this.output.destroyed && this.doc.readableLength + this.output.readableLength > MAX_BUFFERED_BYTES) {
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Writes the header and footer of every page not yet furnished (now that the page count is
   * known) and ends the file; answers the page count (pdfkit forgets its pages once ended).
   */
  finish(): number {
    const total = this.pageCount;
    if (this.totalPages === undefined) {
      const range = this.doc.bufferedPageRange();
      for (let index = range.start; index < range.start + range.count; index += 1) {
        this.doc.switchToPage(index);
        this.furnish(index);
      }
    } else if (total !== this.totalPages) {
      throw new Error(`the report has ${total} pages, not the ${this.totalPages} its pages say`);
    }
    this.doc.end();
    return total;
  }

}
