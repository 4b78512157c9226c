/**
 * The product's own documents (docs/*.md) printed as PDF when they are asked for, so the
 * download says what the text in the repository says. markdown-it reads the text
 * (markdown-blocks.ts); this prints its blocks: headings with their rules, paragraphs, lists,
 * tables, images scaled to the page (JPEG or PNG under the document's folder, the alt text as
 * caption), block quotes, code blocks and rules.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { COLORS, PdfReport, type PdfReportOptions } from '../../pdf/pdf-report.js';
import { fitColumnWidths, PdfTable } from '../../pdf/pdf-table.js';
import { CODE_LOOK, RichText, type TextBoxStyle } from '../../pdf/rich-text.js';
import { imageSources, parseMarkdown, type Block, type ListBlock } from './markdown-blocks.js';

const BODY_SIZE = 10;
const IMAGE_FIT = {
  /** An image's largest height, as a share of the page's text height. */
  maxHeight: 0.5,
  /** How far an image may shrink to end a page instead of starting the next. */
  minShrink: 0.7,
} as const;

/** An image of the document, read and measured before printing starts. */
export interface LoadedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

const TABLE_SIZE = 8.5;

export interface MarkdownPdfOptions extends PdfReportOptions {
  /** The document's text. */
  markdown: string;
  /** Images of the document, by the path its Markdown names them. */
  images: ReadonlyMap<string, LoadedImage>;
}

const HEADING_SIZES: Record<number, number> = { 1: 20, 2: 14.5, 3: 11.5 };

/** Prints the document; answers the report (whose `output` is the PDF) and its page count. */
export async function renderMarkdownPdf(options: MarkdownPdfOptions): Promise<{ pdf: PdfReport; pageCount: number }> {
  const pdf = await PdfReport.open(options);
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
    const maxHeight = (pdf.bottom - pdf.top) * IMAGE_FIT.maxHeight;
    let scale = Math.min(pdf.width / image.width, maxHeight / image.height, 1);
    const room = pdf.bottom - pdf.y - captionHeight - 14;
    if (image.height * scale > room && image.height * scale * IMAGE_FIT.minShrink <= room) scale = room / image.height;
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
    const weights = fitColumnWidths(pdf, block.header, block.rows, TABLE_SIZE);
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
          pdf.doc.save().rect(pdf.left, pdf.y, pdf.width, height).fill(CODE_LOOK.background).restore();
          const text = line === '' ? ' ' : line;
          if (CODE_LOOK.printable.test(text)) {
            pdf.doc.font(CODE_LOOK.font).fontSize(size).fillColor(CODE_LOOK.color).text(text, pdf.left + 6, pdf.y + 2, { lineBreak: false });
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
