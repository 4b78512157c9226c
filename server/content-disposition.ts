/** A download's Content-Disposition; our file names are ASCII, the rest is replaced. */
export function attachment(fileName: string): string {
  const safe = fileName.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${safe}"`;
}

/**
 * A dated download name (report file names are dated yyyy-MM-dd):
 * `Curve_Details_2026-11-23.xlsx`, or with its scope, `Curve_Maintenance_RTM-WR_2026-11-23.xlsx`.
 */
export function datedFileName(stem: string, scope: readonly (string | undefined)[], date: string, extension: string): string {
  const parts = scope.filter((s): s is string => s !== undefined && s !== '').map((s) => s.replace(/[^\w-]+/g, '-'));
  return [stem, ...parts, date].join('_') + `.${extension}`;
}
