/**
 * Reads a PDF back with poppler's command-line tools (Debian package poppler-utils, installed
 * by .ci/run): a reader independent of the server's own writer (pdfkit). Each helper writes
 * the bytes to a scratch file, runs the tool on it and parses its output.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Calls `use` with `bytes` written to a scratch file, removed afterwards. */
async function withPdfFile<T>(bytes: Buffer, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-pdf-'));
  try {
    const file = path.join(dir, 'report.pdf');
    await writeFile(file, bytes);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `tool args... file.pdf` on `bytes` and answers its standard output. */
function popplerOn(bytes: Buffer, tool: string, args: readonly string[], outputToStdout = false): Promise<string> {
  return withPdfFile(bytes, async (file) => {
    const { stdout } = await run(tool, [...args, file, ...(outputToStdout ? ['-'] : [])], { maxBuffer: MAX_OUTPUT, encoding: 'utf8' });
    return stdout;
  });
}

export interface PdfRaster {
  width: number;
  height: number;
  /** Three bytes a pixel, row by row from the top left. */
  rgb: Buffer;
}

/** Page `page` (from 1) drawn at `dpi` by `pdftoppm`, as a viewer would show it. */
export function pdfPageRaster(bytes: Buffer, page: number, dpi: number): Promise<PdfRaster> {
  return withPdfFile(bytes, async (file) => {
    const { stdout } = await run('pdftoppm', ['-f', String(page), '-l', String(page), '-r', String(dpi), file], { maxBuffer: MAX_OUTPUT, encoding: 'buffer' });
    // A binary PPM (P6): "P6 width height 255" then the pixels.
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 50).toString('latin1'));
    if (!header) throw new Error('pdftoppm answered no PPM image');
    return { width: Number(header[1]), height: Number(header[2]), rgb: stdout.subarray(header[0].length) };
  });
}

/** `pdfinfo`'s fields ("Pages", "Page size", "Title", ...) as text. */
export async function pdfInfo(bytes: Buffer): Promise<Record<string, string>> {
  const out = await popplerOn(bytes, 'pdfinfo', []);
  const info: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    if (match?.[1] && match[2] !== undefined) info[match[1].trim()] = match[2].trim();
  }
  return info;
}

/** The number of pages `pdfinfo` counts. */
export async function pdfPageCount(bytes: Buffer): Promise<number> {
  const pages = Number((await pdfInfo(bytes))['Pages']);
  if (!Number.isInteger(pages)) throw new Error('pdfinfo reports no page count');
  return pages;
}

/** The text of each page (`pdftotext -layout`), in page order. */
export async function pdfPageTexts(bytes: Buffer): Promise<string[]> {
  const out = await popplerOn(bytes, 'pdftotext', ['-layout', '-enc', 'UTF-8'], true);
  // pdftotext ends every page with a form feed.
  const pages = out.split('\f');
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages;
}

/** The whole text, pages joined. */
export async function pdfText(bytes: Buffer): Promise<string> {
  return (await pdfPageTexts(bytes)).join('\n');
}

export interface PdfImage {
  page: number;
  /** image, mask, smask or stencil. */
  type: string;
  width: number;
  height: number;
  /** The stream's encoding: jpeg, image (raw), jpx, ... */
  encoding: string;
  objectId: string;
}

/** Every image drawn, page by page (`pdfimages -list`). */
export async function pdfImages(bytes: Buffer): Promise<PdfImage[]> {
  const out = await popplerOn(bytes, 'pdfimages', ['-list']);
  // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
  return out
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const c = line.trim().split(/\s+/);
      return { page: Number(c[0]), type: c[2] ?? '', width: Number(c[3]), height: Number(c[4]), encoding: c[8] ?? '', objectId: `${c[10]} ${c[11]}` };
    });
}

export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
}

/** Every font the PDF uses (`pdffonts`), read by the column spans its dashed rule marks. */
export async function pdfFonts(bytes: Buffer): Promise<PdfFont[]> {
  const lines = (await popplerOn(bytes, 'pdffonts', [])).split('\n');
  const rule = lines[1] ?? '';
  const spans: [number, number][] = [];
  for (const match of rule.matchAll(/-+/g)) spans.push([match.index, match.index + match[0].length]);
  if (spans.length < 4) throw new Error(`unexpected pdffonts output: ${lines.slice(0, 2).join('\n')}`);
  const cell = (line: string, i: number) => line.slice(spans[i]?.[0], spans[i]?.[1]).trim();
  return lines
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => ({ name: cell(line, 0), type: cell(line, 1), embedded: cell(line, 3) === 'yes' }));
}

/** Record IDs as the server makes them (INS-20261120-ABC123), in the order they appear. */
export const recordIdsIn = (text: string): string[] => [...text.matchAll(/INS-\d{8}-[0-9A-Z]{6}/g)].map((m) => m[0]);
