/**
 * The bare baseline of the PDF photo report, run as a child process (started by
 * bench/lib/pdf-baseline.ts): pdfkit alone writes an A4 PDF of the given print-size JPEGs (the
 * bytes the server made for its report, copied by the scenario), two to a page, each under a
 * line of text (standard Helvetica, nothing embedded but the photos), streamed into a file.
 * Each photo is read from disk (a few ahead of the one placed), as the server reads its kept
 * print copies. No
 * database, no cover page, no fields, no Unicode fonts, no hashing or blob store, no HTTP: the
 * floor under the report.
 *
 * Messages: parent -> {type: 'run', files}; child -> 'ready', 'done' with the figures, or 'failed'.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import type { PdfBaselineMessage, PdfBaselineRequest } from './pdf-baseline.js';

const MARGIN = 36;
/** Photos read ahead of the one being placed, as the server's report reads its print copies. */
const READ_AHEAD = 4;
const GAP = 14;
const LINE = 16;

async function writePdf(files: readonly string[], file: string): Promise<{ pages: number; readSeconds: number }> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: false });
  const out = createWriteStream(file);
  doc.pipe(out);
  let pages = 0;
  let readSeconds = 0;
  const ahead: Promise<Buffer>[] = [];
  let next = 0;
  for (let index = 0; index < files.length; index++) {
    while (next < files.length && ahead.length <= READ_AHEAD) {
      const reading = readFile(files[next++] ?? '');
      // Awaited in its turn; a failure must not count as unhandled before then.
      reading.catch(() => undefined);
      ahead.push(reading);
    }
    const started = performance.now();
    const photo = await (ahead.shift() as Promise<Buffer>);
    readSeconds += (performance.now() - started) / 1000;
    if (index % 2 === 0) {
      doc.addPage();
      pages += 1;
    }
    const width = doc.page.width - 2 * MARGIN;
    const block = (doc.page.height - 2 * MARGIN - GAP) / 2;
    const top = MARGIN + (index % 2) * (block + GAP);
    doc.font('Helvetica').fontSize(9).fillColor('#1a1a1a').text(`${index + 1}. Photo ${path.basename(files[index] ?? '')}`, MARGIN, top, { width, lineBreak: false });
    doc.image(photo, MARGIN, top + LINE, { fit: [width, block - LINE], align: 'center', valign: 'center' });
  }
  doc.end();
  await finished(out);
  return { pages, readSeconds };
}

async function main(): Promise<void> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-pdf-baseline-'));
  const send = (message: PdfBaselineMessage) => process.send?.(message);
  const stop = () => {
    rmSync(outDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.on('message', (message: PdfBaselineRequest) => {
    void (async () => {
      const file = path.join(outDir, 'report.pdf');
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      const { pages, readSeconds } = await writePdf(message.files, file);
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuStart);
      const bytes = (await stat(file)).size;
      rmSync(file, { force: true });
      send({ type: 'done', seconds, readSeconds, pages, photos: message.files.length, bytes, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
    })().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
  });
  send({ type: 'ready' });
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? error.stack ?? error.message : String(error) } satisfies PdfBaselineMessage);
  process.exit(1);
});
