/**
 * Starts a download the browser's download manager carries out: a same-origin link to the
 * file (the session cookie goes with it), never a fetch into memory, as a PDF can be 100 MB
 * on a phone. The server's Content-Disposition names the file.
 */
export function startFileDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.setAttribute('download', '');
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
