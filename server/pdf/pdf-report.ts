/**
 * The page furniture every PDF report shares (docs/architecture.md, 'Reports'): A4, the embedded Unicode
 * fonts, a header with the report's title and ID on every page, a footer with who made it and
 * "Page N of M", text in any script, and a cursor that starts a new page when the next block
 * does not fit. The document streams out as it is written, so a report of a thousand photos
 * never sits whole in memory; `drained()` lets the writer wait for the reader.
 */
import { PassThrough } from 'node:stream';
import { lazyModule } from '../lazy-module.js';
import { baseAscent, baseFontName, fontFaces, loadFontkit, needsActualText, runsOf, type Weight } from './fonts.js';

/** pdfkit, loaded with the first report rather than at start (server/lazy-module.ts). */
const loadPdfKit = lazyModule('pdfkit', async () => (await import('pdfkit')).default);

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
  /** The page number at the bottom right of every page; "Page 2 of 5" unless given. */
  pageText?: (page: number, total: number) => string;
}

/** Every report page's geometry in points; the bench's bare pdfkit baseline draws the same page (bench/bare/jobs.ts). */
export const PAGE_GEOMETRY = { margin: 36, headerHeight: 22, footerHeight: 18 } as const;
const { margin: MARGIN, headerHeight: HEADER_HEIGHT, footerHeight: FOOTER_HEIGHT } = PAGE_GEOMETRY;
/** Above this much unread output the writer waits for the reader (the BlobStore). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Points between lines of one text, as pdfkit's `lineGap`. */
const LINE_GAP = 1;
const graphemes = new Intl.Segmenter('hi', { granularity: 'grapheme' });
/** Texts a report keeps the lines of once measured (see `lines`); past this many it starts afresh. */
const LINES_MEMO_SIZE = 20_000;

interface Piece {
  font: string;
  text: string;
  width: number;
}

interface Line {
  pieces: Piece[];
  width: number;
}

/**
 * Draws one run of one font at `size` with its baseline at (x, baseline). A run whose glyphs
 * are shaped out of character order carries its characters as ActualText (needsActualText),
 * so the PDF's text reads back as it was written.
 */
export function drawRun(doc: PDFKit.PDFDocument, font: string, size: number, text: string, x: number, baseline: number): void {
  doc.font(font).fontSize(size);
  if (!needsActualText(font) || text.trim() === '') {
    doc.text(text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
    return;
  }
  // A reader places an ActualText where its span ends (EMC), with the transformation, font and
  // text matrix in force there. pdfkit draws text inside its own q … Q, with the page's y-axis
  // flipped back, so the span is opened and closed under that same transformation (the page's
  // flip applied twice: none), and an empty text object before its end sets the font and
  // position (poppler takes the font's size from the last text shown); else poppler puts the
  // text at the mirrored height of the page, or in a box of no height that its layout misplaces.
  const flip = [1, 0, 0, -1, 0, doc.page.height] as const;
  doc.save().transform(...flip);
  doc.markContent('Span', { actual: text });
  doc.save().transform(...flip);
  doc.text(text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
  doc.restore();
  // pdfkit names each font of a page in its resources; `_font` is the one just used.
  const fontId = (doc as unknown as { _font: { id: string } })._font.id;
  doc.addContent(`BT /${fontId} ${size} Tf 1 0 0 1 ${x.toFixed(3)} ${(doc.page.height - baseline).toFixed(3)} Tm () Tj ET`);
  doc.endMarkedContent();
  doc.restore();
}

export class PdfReport {
  readonly doc: PDFKit.PDFDocument;
  /** The PDF's bytes as they are made. */
  readonly output = new PassThrough();
  /** Where the next block goes. */
  y: number;

  /** A new report: loads pdfkit and the fonts on the first one. */
  static async open(options: PdfReportOptions): Promise<PdfReport> {
    const [PDFDocument] = await Promise.all([loadPdfKit(), loadFontkit()]);
    return new PdfReport(options, PDFDocument);
  }

  private constructor(
    private readonly options: PdfReportOptions,
    PDFDocument: Awaited<ReturnType<typeof loadPdfKit>>,
  ) {
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
    this.text(this.options.pageText?.(index + 1, total) ?? `Page ${index + 1} of ${total}`, MARGIN + half, footerY, { size: 7.5, color: COLORS.muted, width: half, align: 'right' });
    this.doc.page.margins = margins;
    this.doc.x = x;
    this.doc.y = y;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.y + height > this.bottom && this.y > this.top) this.newPage();
  }

  /** The height `text` takes at `style` in `width`: its lines, as `text` breaks them. */
  measure(text: string, style: TextStyle & { width: number }): number {
    const size = style.size ?? 9;
    const weight = style.weight ?? 'regular';
    return Math.max(1, this.lines(text, size, weight, style.width).length) * this.lineHeight(size, weight);
  }

  /** The width `text` takes on one line. */
  widthOf(text: string, style: Pick<TextStyle, 'size' | 'weight'> = {}): number {
    const size = style.size ?? 9;
    return runsOf(text, style.weight ?? 'regular').reduce((sum, run) => sum + this.runWidth(run.font, run.text, size), 0);
  }

  /**
   * Draws `text` with its top at (x, y), wrapping at spaces within `style.width` (a word wider
   * than a line is cut between its characters), each run of a script in a font that has it.
   * `measure` gives the height it takes: both come from the same lines.
   */
  text(text: string, x: number, y: number, style: TextStyle = {}): void {
    const size = style.size ?? 9;
    const weight = style.weight ?? 'regular';
    const width = style.width ?? this.right - x;
    const lines = this.lines(text, size, weight, width);
    if (lines.length === 0) return;
    this.doc.fontSize(size).fillColor(style.color ?? COLORS.ink);
    const height = this.lineHeight(size, weight);
    const align = style.align ?? 'left';
    lines.forEach((line, index) => {
      // Alphabetic baseline: runs of different fonts (whose ascenders differ) share one line.
      const baseline = y + index * height + baseAscent(weight) * size;
      let at = align === 'right' ? x + width - line.width : align === 'center' ? x + (width - line.width) / 2 : x;
      for (const piece of line.pieces) {
        drawRun(this.doc, piece.font, size, piece.text, at, baseline);
        at += piece.width;
      }
    });
  }

  /** A line's height at `size`, as pdfkit spaces lines: the Latin face's line height and a 1 pt gap. */
  private lineHeight(size: number, weight: Weight): number {
    return this.doc.font(baseFontName(weight)).fontSize(size).currentLineHeight(true) + LINE_GAP;
  }

  private runWidth(font: string, text: string, size: number): number {
    return this.doc.font(font).fontSize(size).widthOfString(text);
  }

  private readonly linesMemo = new Map<string, readonly Line[]>();

  /**
   * The lines `text` makes in `width`, each as runs of one font with their widths. A record's
   * block measures its labels and values to lay them out, then draws them, and every record
   * repeats the labels: each is cut and measured once per report (the lines are never changed).
   */
  private lines(text: string, size: number, weight: Weight, width: number): readonly Line[] {
    const key = `${size}\u0000${weight}\u0000${width}\u0000${text}`;
    let lines = this.linesMemo.get(key);
    if (lines === undefined) {
      lines = this.measureLines(text, size, weight, width);
      if (this.linesMemo.size >= LINES_MEMO_SIZE) this.linesMemo.clear();
      this.linesMemo.set(key, lines);
    }
    return lines;
  }

  private measureLines(text: string, size: number, weight: Weight, width: number): Line[] {
    const runs = runsOf(text, weight);
    if (runs.length === 0) return [];
    // Most report text is one short line: it is measured as it is, without cutting it into words
    // (a report of a thousand records measures ~30,000 of them).
    if (!text.includes('\n')) {
      const pieces = runs.map((run) => ({ font: run.font, text: run.text, width: this.runWidth(run.font, run.text, size) }));
      const lineWidth = pieces.reduce((sum, p) => sum + p.width, 0);
      if (lineWidth <= width) return [{ pieces, width: lineWidth }];
    }
    return text.split('\n').flatMap((paragraph) => this.wrap(paragraph, size, weight, width));
  }

  /** One paragraph's lines: words are kept whole while they fit, joined by one space. */
  private wrap(paragraph: string, size: number, weight: Weight, width: number): Line[] {
    const space = this.runWidth(baseFontName(weight), ' ', size);
    const lines: Line[] = [];
    let line: Line = { pieces: [], width: 0 };
    const push = () => {
      lines.push(line);
      line = { pieces: [], width: 0 };
    };
    const add = (pieces: readonly Piece[]) => {
      for (const piece of pieces) {
        const last = line.pieces.at(-1);
        // Pieces of one font are drawn as one string, which keeps the PDF's text readable.
        if (last && last.font === piece.font) line.pieces[line.pieces.length - 1] = { font: last.font, text: last.text + piece.text, width: last.width + piece.width };
        else line.pieces.push({ ...piece });
        line.width += piece.width;
      }
    };
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      const pieces = runsOf(word, weight).map((run) => ({ font: run.font, text: run.text, width: this.runWidth(run.font, run.text, size) }));
      const wordWidth = pieces.reduce((sum, p) => sum + p.width, 0);
      if (line.pieces.length > 0 && line.width + space + wordWidth > width) push();
      if (line.pieces.length > 0) {
        const last = line.pieces.at(-1)!;
        add([{ font: last.font, text: ' ', width: space }]);
      }
      if (wordWidth <= width) {
        add(pieces);
        continue;
      }
      // A word wider than the line: cut between its characters (whole clusters, so a conjunct
      // or a vowel sign stays with its consonant).
      for (const piece of pieces) {
        for (const { segment } of graphemes.segment(piece.text)) {
          const w = this.runWidth(piece.font, segment, size);
          if (line.pieces.length > 0 && line.width + w > width) push();
          add([{ font: piece.font, text: segment, width: w }]);
        }
      }
    }
    if (line.pieces.length > 0 || lines.length === 0) push();
    return lines;
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

  /**
   * Label and value pairs in `columns` columns, row by row. The labels' column is as wide as
   * the widest label (a bilingual label is long), up to half a column; a longer one wraps.
   */
  facts(pairs: readonly (readonly [string, string])[], columns = 2, size = 9): void {
    const gap = 12;
    const columnWidth = (this.width - gap * (columns - 1)) / columns;
    const widest = Math.max(0, ...pairs.map(([label]) => this.widthOf(label, { size })));
    const labelWidth = Math.min(Math.max(110, widest + 8), columnWidth * 0.5);
    for (let i = 0; i < pairs.length; i += columns) {
      const row = pairs.slice(i, i + columns);
      const height = Math.max(
        ...row.map(([label, value]) => Math.max(this.measure(label, { size, width: labelWidth - 4 }), this.measure(value, { size, width: columnWidth - labelWidth }))),
      );
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
