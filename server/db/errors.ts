/**
 * PostgreSQL's unique_violation (23505), as pg and PGlite raise it (Drizzle may wrap it in
 * `cause`). Returns the violated constraint's name ('' when the driver did not say), or null
 * for any other error. Services check for duplicates first, with a message naming them; this
 * catches the race where two requests insert the same key at once.
 */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') {
      const constraint = (e as { constraint?: unknown }).constraint;
      return typeof constraint === 'string' ? constraint : '';
    }
  }
  return null;
}
