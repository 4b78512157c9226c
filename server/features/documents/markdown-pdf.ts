/**
 * The product's own documents (docs/*.md) printed as PDF when they are asked for, so the
 * download says what the text in the repository says. Only the subset of Markdown the
 * documents use is read: #/##/### headings, paragraphs with **bold**, `code` and [links](url),
 * bullet and numbered lists (nested by indentation), pipe tables, images on a line of their
 * own (JPEG or PNG under the document's folder, scaled to the page, the alt text as caption),
 * block quotes, fenced code blocks and rules. Anything else prints as plain text.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { baseAscent, baseFontName, runsOf, type Weight } from '../../pdf/fonts.js';
import { COLORS, PdfReport, type PdfReportOptions } from '../../pdf/pdf-report.js';
import { PdfTable } from '../../pdf/pdf-table.js';

// ---------------------------------------------------------------------------------------------
// Reading the Markdown

export type SpanStyle = 'regular' | 'bold' | 'code';

export interface Span {
  text: string;
  style: SpanStyle;
}

export interface ListItem {
  spans: Span[];
  children: ListBlock[];
}

export interface ListBlock {
  kind: 'list';
  ordered: boolean;
  start: number;
  items: ListItem[];
}

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; spans: Span[] }
  | ListBlock
  | { kind: 'table'; header: string[]; rows: string[][]; align: ('left' | 'right' | 'center')[] }
  | { kind: 'image'; alt: string; src: string }
  | { kind: 'quote'; spans: Span[] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'rule' };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const IMAGE_LINE = /^!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const FENCE = /^\s*(```|~~~)/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const ESCAPABLE = '\\`*_{}[]()#+-.!|>~';

/** Inline Markdown as styled spans: **bold**, `code`, [text](url) as its text, *emphasis* as plain text. */
export function parseInline(source: string): Span[] {
  const spans: Span[] = [];
  let buffer = '';
  let bold = false;
  const flush = () => {
    if (buffer === '') return;
    const style: SpanStyle = bold ? 'bold' : 'regular';
    const last = spans.at(-1);
    if (last && last.style === style) last.text += buffer;
    else spans.push({ text: buffer, style });
    buffer = '';
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\\' && i + 1 < source.length && ESCAPABLE.includes(source[i + 1]!)) {
      buffer += source[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      const end = source.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        spans.push({ text: source.slice(i + 1, end), style: 'code' });
        i = end + 1;
        continue;
      }
    }
    if (source.startsWith('**', i) || source.startsWith('__', i)) {
      const marker = source.slice(i, i + 2);
      // Opening needs a closing marker ahead; closing is the marker while bold.
      if (bold || source.indexOf(marker, i + 2) > i + 2) {
        flush();
        bold = !bold;
        i += 2;
        continue;
      }
    }
    if (char === '[') {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(source.slice(i));
      if (link) {
        buffer += link[1];
        i += link[0].length;
        continue;
      }
    }
    if ((char === '*' || char === '_') && !source.startsWith(char + char, i)) {
      // Single-marker emphasis: the markers go, the words stay (no italic face is embedded).
      const prev = source[i - 1];
      const next = source[i + 1];
      const opens = next !== undefined && next !== ' ' && (prev === undefined || /[\s([{"'-]/.test(prev));
      const close = opens ? source.indexOf(char, i + 1) : -1;
      if (opens && close > i + 1 && source[close - 1] !== ' ' && !/\w/.test(source[close + 1] ?? '')) {
        buffer += source.slice(i + 1, close);
        i = close + 1;
        continue;
      }
    }
    buffer += char;
    i += 1;
  }
  flush();
  return spans;
}

/** The text of inline Markdown without its markers (table cells, headings). */
export const plainText = (source: string): string =>
  parseInline(source)
    .map((s) => s.text)
    .join('');

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i += 1) {
    if (row[i] === '\\' && row[i + 1] === '|') {
      cell += '|';
      i += 1;
    } else if (row[i] === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += row[i];
  }
  cells.push(cell.trim());
  return cells;
}

const indentOf = (whitespace: string) => whitespace.replace(/\t/g, '    ').length;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  // Open lists, outermost first, with the indentation of their items' markers.
  let listStack: { list: ListBlock; indent: number }[] = [];

  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', spans: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  const endList = () => {
    listStack = [];
  };

  for (let n = 0; n < lines.length; n += 1) {
    const line = lines[n]!;
    if (line.trim() === '') {
      endParagraph();
      // A list survives one blank line when the next line carries on with an item.
      const next = lines.slice(n + 1).find((l) => l.trim() !== '');
      if (!(next && LIST_ITEM.test(next) && listStack.length > 0)) endList();
      continue;
    }

    if (FENCE.test(line)) {
      endParagraph();
      endList();
      const code: string[] = [];
      n += 1;
      while (n < lines.length && !FENCE.test(lines[n]!)) {
        code.push(lines[n]!);
        n += 1;
      }
      blocks.push({ kind: 'code', lines: code });
      continue;
    }

    const item = LIST_ITEM.exec(line);
    if (item && !(listStack.length === 0 && paragraph.length > 0 && /^\d/.test(item[2]!))) {
      endParagraph();
      const indent = indentOf(item[1]!);
      const marker = item[2]!;
      const ordered = /^\d/.test(marker);
      while (listStack.length > 0 && indent < listStack.at(-1)!.indent) listStack.pop();
      const top = listStack.at(-1);
      if (!top || indent > top.indent || top.list.ordered !== ordered) {
        const list: ListBlock = { kind: 'list', ordered, start: ordered ? Number.parseInt(marker, 10) : 1, items: [] };
        const parentItem = top && indent > top.indent ? top.list.items.at(-1) : undefined;
        if (parentItem) parentItem.children.push(list);
        else {
          blocks.push(list);
          listStack = [];
        }
        listStack.push({ list, indent });
      }
      listStack.at(-1)!.list.items.push({ spans: parseInline(item[3]!), children: [] });
      continue;
    }

    if (listStack.length > 0 && /^\s+\S/.test(line)) {
      // An indented line carries on the last item.
      const last = listStack.at(-1)!.list.items.at(-1);
      if (last) {
        last.spans.push(...parseInline(' ' + line.trim()));
        continue;
      }
    }
    endList();

    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: plainText(heading[2]!) });
      continue;
    }

    const image = IMAGE_LINE.exec(line.trim());
    if (image) {
      endParagraph();
      blocks.push({ kind: 'image', alt: plainText(image[1]!), src: image[2]! });
      continue;
    }

    if (line.trim().startsWith('|') && TABLE_SEPARATOR.test(lines[n + 1] ?? '')) {
      endParagraph();
      const header = splitRow(line).map(plainText);
      const align = splitRow(lines[n + 1]!).map((cell) =>
        cell.startsWith(':') && cell.endsWith(':') ? ('center' as const) : cell.endsWith(':') ? ('right' as const) : ('left' as const),
      );
      const rows: string[][] = [];
      n += 2;
      while (n < lines.length && lines[n]!.trim().startsWith('|')) {
        const cells = splitRow(lines[n]!).map(plainText);
        rows.push(header.map((_, i) => cells[i] ?? ''));
        n += 1;
      }
      n -= 1;
      blocks.push({ kind: 'table', header, rows, align: header.map((_, i) => align[i] ?? 'left') });
      continue;
    }

    if (RULE.test(line)) {
      endParagraph();
      blocks.push({ kind: 'rule' });
      continue;
    }

    if (line.trimStart().startsWith('>')) {
      endParagraph();
      const quoted: string[] = [];
      while (n < lines.length && lines[n]!.trimStart().startsWith('>')) {
        quoted.push(lines[n]!.trimStart().replace(/^>\s?/, ''));
        n += 1;
      }
      n -= 1;
      blocks.push({ kind: 'quote', spans: parseInline(quoted.join(' ')) });
      continue;
    }

    paragraph.push(line.trim());
  }
  endParagraph();
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Printing

/** pdfkit's built-in Courier (not embedded, ASCII only) for code; other code text keeps Noto Sans. */
const CODE_FONT = 'Courier';
const CODE_SCALE = 0.9;
const BODY_SIZE = 10;
const LINE_FACTOR = 1.42;
/** Noto Sans's ascender plus descender, as a share of the font size. */
const FONT_BOX = 1.362;
const CODE_BACKGROUND = '#f0f3f6';
const ASCII_ONLY = /^[\x20-\x7e]*$/;
/** An image's largest height, as a share of the page's text height. */
const IMAGE_MAX_HEIGHT = 0.5;
/** How far an image may shrink to end a page instead of starting the next. */
const IMAGE_MIN_SHRINK = 0.7;

/** An image of the document, read and measured before printing starts. */
export interface LoadedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

interface Piece {
  text: string;
  font: string;
  width: number;
  style: SpanStyle;
}

interface TextBoxStyle {
  size: number;
  color?: string;
  /** Bold throughout (headings). */
  strong?: boolean;
}

/** Lays out styled text line by line with its own word wrapping, so a page break may fall between any two lines. */
class RichText {
  constructor(private readonly pdf: PdfReport) {}

  private fontSizeFor(style: SpanStyle, size: number): number {
    return style === 'code' ? size * CODE_SCALE : size;
  }

  /** Cuts a span's text into measured pieces of one font each, words and the spaces between them apart. */
  private pieces(spans: readonly Span[], size: number, strong: boolean): Piece[][] {
    const doc = this.pdf.doc;
    const words: Piece[][] = [];
    let word: Piece[] = [];
    const endWord = () => {
      if (word.length > 0) words.push(word);
      word = [];
    };
    for (const span of spans) {
      const weight: Weight = strong || span.style === 'bold' ? 'bold' : 'regular';
      const fontSize = this.fontSizeFor(span.style, size);
      for (const token of span.text.split(/(\s+)/)) {
        if (token === '') continue;
        if (/^\s+$/.test(token)) {
          endWord();
          words.push([{ text: ' ', font: '', width: 0, style: span.style }]);
          continue;
        }
        const runs = span.style === 'code' && ASCII_ONLY.test(token) ? [{ font: CODE_FONT, text: token }] : runsOf(token, weight);
        for (const run of runs) {
          word.push({ text: run.text, font: run.font, style: span.style, width: doc.font(run.font).fontSize(fontSize).widthOfString(run.text) });
        }
      }
    }
    endWord();
    return words;
  }

  private spaceWidth(size: number): number {
    return this.pdf.doc.font(runsOf(' ', 'regular')[0]!.font).fontSize(size).widthOfString(' ');
  }

  /** Splits a word wider than a line into pieces that fit, character by character. */
  private breakWord(word: Piece[], width: number, size: number): Piece[][] {
    const doc = this.pdf.doc;
    const lines: Piece[][] = [];
    let line: Piece[] = [];
    let used = 0;
    for (const piece of word) {
      const measure = (text: string) => doc.font(piece.font).fontSize(this.fontSizeFor(piece.style, size)).widthOfString(text);
      let chunk = '';
      for (const char of piece.text) {
        if (chunk !== '' && used + measure(chunk + char) > width) {
          line.push({ ...piece, text: chunk, width: measure(chunk) });
          lines.push(line);
          line = [];
          used = 0;
          chunk = '';
        }
        chunk += char;
      }
      if (chunk !== '') {
        const w = measure(chunk);
        line.push({ ...piece, text: chunk, width: w });
        used += w;
      }
    }
    if (line.length > 0) lines.push(line);
    return lines;
  }

  /** The lines `spans` make in `width`. */
  lines(spans: readonly Span[], width: number, style: TextBoxStyle): Piece[][] {
    const space = this.spaceWidth(style.size);
    const lines: Piece[][] = [];
    let line: Piece[] = [];
    let used = 0;
    let pendingSpace = false;
    for (const word of this.pieces(spans, style.size, style.strong ?? false)) {
      if (word.length === 1 && word[0]!.font === '') {
        pendingSpace = line.length > 0;
        continue;
      }
      const wordWidth = word.reduce((sum, p) => sum + p.width, 0);
      const gap = pendingSpace ? space : 0;
      if (line.length > 0 && used + gap + wordWidth > width) {
        lines.push(line);
        line = [];
        used = 0;
      } else if (gap > 0) {
        line.push({ text: ' ', font: '', width: space, style: 'regular' });
        used += space;
      }
      pendingSpace = false;
      if (wordWidth > width) {
        const broken = this.breakWord(word, width, style.size);
        lines.push(...broken.slice(0, -1));
        line = broken.at(-1) ?? [];
        used = line.reduce((sum, p) => sum + p.width, 0);
      } else {
        line.push(...word);
        used += wordWidth;
      }
    }
    if (line.length > 0) lines.push(line);
    return lines;
  }

  lineHeight(size: number): number {
    return size * LINE_FACTOR;
  }

  /** How far below a line's top its glyphs' box starts: the box is centred in the line. */
  glyphTop(size: number): number {
    return (this.lineHeight(size) - size * FONT_BOX) / 2;
  }

  /** Draws one laid-out line with its top at (x, y). */
  drawLine(line: readonly Piece[], x: number, y: number, style: TextBoxStyle): void {
    const doc = this.pdf.doc;
    let cursor = x;
    const baseline = y + this.glyphTop(style.size) + baseAscent('regular') * style.size;
    // Neighbouring pieces of one font and style are drawn as one string (a space joins the
    // piece before it), which keeps the text of the PDF readable and searchable.
    const merged: Piece[] = [];
    for (const piece of line) {
      const last = merged.at(-1);
      if (piece.font === '' || (last && last.font === piece.font && last.style === piece.style)) {
        if (last) {
          last.text += piece.text;
          last.width += piece.width;
        }
      } else merged.push({ ...piece });
    }
    for (const piece of merged) {
      const fontSize = this.fontSizeFor(piece.style, style.size);
      if (piece.style === 'code') {
        const trimmed = piece.text.trimEnd();
        const w = doc.font(piece.font).fontSize(fontSize).widthOfString(trimmed);
        doc
          .save()
          .roundedRect(cursor - 1.5, y + 0.5, w + 3, this.lineHeight(style.size) - 1, 2)
          .fill(CODE_BACKGROUND)
          .restore();
      }
      doc
        .font(piece.font)
        .fontSize(fontSize)
        .fillColor(piece.style === 'code' ? '#24292f' : (style.color ?? COLORS.ink));
      doc.text(piece.text, cursor, baseline, { lineBreak: false, baseline: 'alphabetic' });
      cursor += piece.width;
    }
  }

  /**
   * Prints `spans` at the cursor from `x` across `width`, a new page whenever the next line does
   * not fit; `firstLine` draws something beside the first line (a list's bullet).
   */
  flow(spans: readonly Span[], x: number, width: number, style: TextBoxStyle, firstLine?: (top: number) => void): void {
    const pdf = this.pdf;
    const height = this.lineHeight(style.size);
    this.lines(spans, width, style).forEach((line, index) => {
      pdf.ensure(height);
      if (index === 0) firstLine?.(pdf.y);
      this.drawLine(line, x, pdf.y, style);
      pdf.y += height;
    });
  }
}

const TABLE_SIZE = 8.5;
/** PdfTable's padding on each side of a cell, and a little to spare. */
const CELL_PADDING = 3 * 2 + 1;

/**
 * The widths of a table's columns: each gets room by how much its cells hold on average, so a
 * column of short words stays narrow and one of sentences gets the width, but never less than
 * its longest word (a word is never cut).
 */
function columnWidths(pdf: PdfReport, header: readonly string[], rows: readonly string[][], size: number): number[] {
  const doc = pdf.doc;
  const wordWidth = (text: string, weight: Weight) =>
    Math.max(0, ...text.split(/\s+/).map((word) => doc.font(baseFontName(weight)).fontSize(size).widthOfString(word)));
  const minimum = header.map(
    (h, i) => Math.max(wordWidth(h, 'bold'), ...rows.map((r) => wordWidth(r[i] ?? '', 'regular'))) + CELL_PADDING,
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

export interface MarkdownPdfOptions extends PdfReportOptions {
  /** The document's text. */
  markdown: string;
  /** Images of the document, by the path its Markdown names them. */
  images: ReadonlyMap<string, LoadedImage>;
}

const HEADING_SIZES: Record<number, number> = { 1: 20, 2: 14.5, 3: 11.5 };

/** Prints the document; answers the report (whose `output` is the PDF) and its page count. */
export function renderMarkdownPdf(options: MarkdownPdfOptions): { pdf: PdfReport; pageCount: number } {
  const pdf = new PdfReport(options);
  const rich = new RichText(pdf);
  const body: TextBoxStyle = { size: BODY_SIZE };
  const blocks = parseMarkdown(options.markdown);

  /** A list whose markers stand at `x`; a nested list's markers stand under its parent item's text. */
  const printList = (list: ListBlock, x: number, depth: number) => {
    const markerWidth = list.ordered ? 18 : 12;
    const textX = x + markerWidth;
    list.items.forEach((item, index) => {
      const marker = list.ordered ? `${list.start + index}.` : depth === 0 ? '\u2022' : '\u2013';
      rich.flow(item.spans, textX, pdf.right - textX, body, (top) => {
        pdf.text(marker, x + (list.ordered ? 0 : 3), top + rich.glyphTop(BODY_SIZE), {
          size: BODY_SIZE,
          color: list.ordered ? COLORS.ink : COLORS.accent,
        });
      });
      pdf.y += 2;
      for (const child of item.children) printList(child, textX, depth + 1);
    });
  };

  const printImage = (alt: string, src: string) => {
    const image = options.images.get(src);
    const captionStyle = { size: 8.5, color: COLORS.muted, align: 'center' as const, width: pdf.width };
    if (!image) {
      const note = `[Image not available: ${src}]`;
      pdf.ensure(40);
      pdf.doc.save().rect(pdf.left, pdf.y, pdf.width, 28).lineWidth(0.5).strokeColor(COLORS.rule).stroke().restore();
      pdf.text(note, pdf.left, pdf.y + 9, captionStyle);
      pdf.y += 34;
      return;
    }
    // Scaled to the page's width, and never so tall that a phone screenshot fills a page. Near
    // the foot of a page an image shrinks a little to fit rather than leave the rest empty.
    const captionHeight = alt === '' ? 0 : pdf.measure(alt, captionStyle) + 4;
    const maxHeight = (pdf.bottom - pdf.top) * IMAGE_MAX_HEIGHT;
    let scale = Math.min(pdf.width / image.width, maxHeight / image.height, 1);
    const room = pdf.bottom - pdf.y - captionHeight - 14;
    if (image.height * scale > room && image.height * scale * IMAGE_MIN_SHRINK <= room) scale = room / image.height;
    const width = image.width * scale;
    const height = image.height * scale;
    pdf.ensure(height + captionHeight + 14);
    pdf.y += 4;
    const x = pdf.left + (pdf.width - width) / 2;
    pdf.doc.image(image.bytes, x, pdf.y, { width, height });
    pdf.doc.save().rect(x, pdf.y, width, height).lineWidth(0.5).strokeColor(COLORS.rule).stroke().restore();
    pdf.y += height + 4;
    if (alt !== '') {
      pdf.text(alt, pdf.left, pdf.y, captionStyle);
      pdf.y += captionHeight;
    }
    pdf.y += 8;
  };

  const printTable = (block: Extract<Block, { kind: 'table' }>) => {
    const weights = columnWidths(pdf, block.header, block.rows, TABLE_SIZE);
    const table = new PdfTable(
      pdf,
      block.header.map((header, i) => ({ header, weight: weights[i]!, align: block.align[i] ?? 'left' })),
      TABLE_SIZE,
    );
    for (const row of block.rows) table.row(row);
    pdf.y += 8;
  };

  blocks.forEach((block, index) => {
    switch (block.kind) {
      case 'heading': {
        const size = HEADING_SIZES[block.level] ?? BODY_SIZE + 1;
        const style: TextBoxStyle = { size, strong: true, color: block.level <= 2 ? COLORS.accent : COLORS.ink };
        const lines = rich.lines([{ text: block.text, style: 'bold' }], pdf.width, style);
        const height = lines.length * rich.lineHeight(size);
        // A heading never ends a page: it keeps its first lines of text with it.
        if (index > 0 && pdf.y > pdf.top) pdf.y += block.level <= 2 ? 10 : 5;
        pdf.ensure(height + rich.lineHeight(BODY_SIZE) * 3);
        for (const line of lines) {
          rich.drawLine(line, pdf.left, pdf.y, style);
          pdf.y += rich.lineHeight(size);
        }
        if (block.level <= 2) {
          pdf.rule(pdf.y + 1, block.level === 1 ? COLORS.accent : COLORS.rule);
          pdf.y += 6;
        } else pdf.y += 2;
        break;
      }
      case 'paragraph':
        rich.flow(block.spans, pdf.left, pdf.width, body);
        pdf.y += 6;
        break;
      case 'list':
        printList(block, pdf.left, 0);
        pdf.y += 4;
        break;
      case 'quote': {
        const startPage = pdf.pageCount;
        const top = pdf.y;
        rich.flow(block.spans, pdf.left + 12, pdf.width - 12, { size: BODY_SIZE, color: COLORS.muted });
        // The bar is drawn when the quote stayed on one page (a quote is a short note).
        if (pdf.pageCount === startPage) {
          pdf.doc.save().rect(pdf.left, top, 3, pdf.y - top).fill(COLORS.accent).restore();
        }
        pdf.y += 6;
        break;
      }
      case 'code': {
        const size = 8.5;
        const height = size * 1.3;
        for (const line of block.lines) {
          pdf.ensure(height);
          pdf.doc.save().rect(pdf.left, pdf.y, pdf.width, height).fill(CODE_BACKGROUND).restore();
          const text = line === '' ? ' ' : line;
          if (ASCII_ONLY.test(text)) {
            pdf.doc.font(CODE_FONT).fontSize(size).fillColor('#24292f').text(text, pdf.left + 6, pdf.y + 2, { lineBreak: false });
          } else pdf.text(text, pdf.left + 6, pdf.y + 1, { size });
          pdf.y += height;
        }
        pdf.y += 8;
        break;
      }
      case 'image':
        printImage(block.alt, block.src);
        break;
      case 'table':
        printTable(block);
        break;
      case 'rule':
        pdf.ensure(12);
        pdf.rule(pdf.y + 4);
        pdf.y += 12;
        break;
    }
  });
  return { pdf, pageCount: pdf.finish() };
}

/** The images a document's Markdown shows, in order (with repeats). */
export function imageSources(markdown: string): string[] {
  return parseMarkdown(markdown).flatMap((block) => (block.kind === 'image' ? [block.src] : []));
}

/**
 * Reads and measures the images a document names, relative to its folder. A path that leaves
 * the folder, is not a JPEG or PNG, or cannot be read is left out (the PDF says so in its place).
 */
export async function loadImages(markdown: string, baseDir: string): Promise<Map<string, LoadedImage>> {
  const root = path.resolve(baseDir);
  const images = new Map<string, LoadedImage>();
  for (const src of new Set(imageSources(markdown))) {
    if (/^[a-z]+:/i.test(src)) continue;
    const file = path.resolve(root, decodeURI(src));
    if (!file.startsWith(root + path.sep)) continue;
    try {
      const bytes = await readFile(file);
      const meta = await sharp(bytes).metadata();
      if ((meta.format !== 'jpeg' && meta.format !== 'png') || !meta.width || !meta.height) continue;
      images.set(src, { bytes, width: meta.width, height: meta.height });
    } catch {
      // Left out: the PDF shows where it would have been.
    }
  }
  return images;
}
