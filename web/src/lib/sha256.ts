/**
 * The sha256 of a photo as the phone stored it, as 64 hex digits, sent with the record so the
 * server can tell the bytes it received are the bytes taken. Undefined where the browser
 * offers no digest (WebCrypto needs a secure context: HTTPS or localhost); the server then
 * computes the hash alone, as for records queued before phones sent it.
 */
export async function sha256Hex(blob: Blob): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  try {
    const digest = await subtle.digest('SHA-256', new Uint8Array(await blob.arrayBuffer()));
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  } catch {
    return undefined;
  }
}
