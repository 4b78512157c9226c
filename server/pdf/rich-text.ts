/**
 * Styled text (regular, bold and code spans) laid out line by line with its own word wrapping,
 * so a page break may fall between any two lines and a code span gets its shaded box. pdfkit's
 * own wrapper cannot mix a box behind some words with text in several scripts.
 */
import { baseAscent, runsOf, type Weight } from './fonts.js';
import { COLORS, drawRun, type PdfReport } from './pdf-report.js';

export type SpanStyle = 'regular' | 'bold' | 'code';

export interface TextSpan {
  text: string;
  style: SpanStyle;
}

/**
 * How code prints: pdfkit's built-in Courier (not embedded, so ASCII only; other code text
 * keeps Noto Sans) in a dark ink on a shaded box, a little smaller than the text around it.
 */
export const CODE_LOOK = {
  font: 'Courier',
  background: '#f0f3f6',
  color: '#24292f',
  scale: 0.9,
  /** Text Courier can print. */
  printable: /^[\x20-\x7e]*$/,
} as const;
const LINE_FACTOR = 1.42;
/** Noto Sans's ascender plus descender, as a share of the font size. */
const FONT_BOX = 1.362;

interface Piece {
  text: string;
  font: string;
  width: number;
  style: SpanStyle;
}

export interface TextBoxStyle {
  size: number;
  color?: string;
  /** Bold throughout (headings). */
  strong?: boolean;
}

/** Lays out styled text line by line with its own word wrapping, so a page break may fall between any two lines. */
export class RichText {
  constructor(private readonly pdf: PdfReport) {}

  private fontSizeFor(style: SpanStyle, size: number): number {
    return style === 'code' ? size * CODE_LOOK.scale : size;
  }

  /** Cuts a span's text into measured pieces of one font each, words and the spaces between them apart. */
  private pieces(spans: readonly TextSpan[], size: number, strong: boolean): Piece[][] {
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
        const runs = span.style === 'code' && CODE_LOOK.printable.test(token) ? [{ font: CODE_LOOK.font, text: token }] : runsOf(token, weight);
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
  lines(spans: readonly TextSpan[], width: number, style: TextBoxStyle): Piece[][] {
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
          .fill(CODE_LOOK.background)
          .restore();
      }
      doc.fillColor(piece.style === 'code' ? CODE_LOOK.color : (style.color ?? COLORS.ink));
      drawRun(doc, piece.font, fontSize, piece.text, cursor, baseline);
      cursor += piece.width;
    }
  }

  /**
   * Prints `spans` at the cursor from `x` across `width`, a new page whenever the next line does
   * not fit; `firstLine` draws something beside the first line (a list's bullet).
   */
  flow(spans: readonly TextSpan[], x: number, width: number, style: TextBoxStyle, firstLine?: (top: number) => void): void {
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
