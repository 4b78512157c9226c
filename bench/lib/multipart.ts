/**
 * multipart/form-data bodies built once as a Buffer, the way a browser's FormData sends them,
 * with placeholders that can be overwritten in place per request (same length, so the
 * Content-Length stays right).
 */
import { randomBytes } from 'node:crypto';

export interface FormPart {
  name: string;
  /** A text field's value, or a file's bytes. */
  value: string | Buffer;
  /** For a file part. */
  filename?: string;
  /** For a file part; text fields are sent without one, as FormData does. */
  contentType?: string;
}

export interface MultipartBody {
  body: Buffer;
  /** The header value, with the boundary. */
  contentType: string;
}

export function newBoundary(): string {
  return `----hkmibench${randomBytes(12).toString('hex')}`;
}

export function buildMultipart(parts: readonly FormPart[], boundary = newBoundary()): MultipartBody {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const value = typeof part.value === 'string' ? Buffer.from(part.value, 'utf8') : part.value;
    if (value.includes(delimiter)) throw new Error(`the value of part ${part.name} contains the boundary`);
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), value, Buffer.from('\r\n', 'latin1'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every offset at which `needle` occurs in `haystack`. */
export function offsetsOf(haystack: Buffer, needle: string): number[] {
  const bytes = Buffer.from(needle, 'latin1');
  const offsets: number[] = [];
  for (let at = haystack.indexOf(bytes); at !== -1; at = haystack.indexOf(bytes, at + bytes.length)) offsets.push(at);
  return offsets;
}

/** Writes `value` at each offset (latin1: one byte per character). */
export function patchAt(buffer: Buffer, offsets: readonly number[], value: string): void {
  for (const offset of offsets) buffer.write(value, offset, 'latin1');
}
