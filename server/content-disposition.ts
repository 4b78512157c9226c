/** A download's Content-Disposition; our file names are ASCII, the rest is replaced. */
export function attachment(fileName: string): string {
  const safe = fileName.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${safe}"`;
}
