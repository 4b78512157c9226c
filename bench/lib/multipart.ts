/** multipart/form-data bodies built once, as FormData sends them, with placeholders overwritten in place per request (same length). */
import { randomBytes } from 'node:crypto';

export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export const newBoundary = () => `----hkmibench${randomBytes(12).toString('hex')}`;

export function buildMultipart(parts: readonly FormPart[], boundary = newBoundary()) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const value = typeof part.value === 'string' ? Buffer.from(part.value, 'utf8') : part.value;
    if (value.includes(`--${boundary}`, 0, 'latin1')) throw new Error(`the value of part ${part.name} contains the boundary`);
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`, 'utf8'), value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type MultipartBody = ReturnType<typeof buildMultipart>;

export function offsetsOf(haystack: Buffer, needle: string): number[] {
  const offsets: number[] = [];
  for (let at = haystack.indexOf(needle, 0, 'latin1'); at !== -1; at = haystack.indexOf(needle, at + needle.length, 'latin1')) offsets.push(at);
  return offsets;
}

export function patchAt(buffer: Buffer, offsets: readonly number[], value: string): void {
  for (const offset of offsets) buffer.write(value, offset, 'latin1');
}
