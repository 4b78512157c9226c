/** The bench's environment variables, trimmed (empty is unset); a bad value is a UsageError (the runner exits 2 on one). */
import { dateInTimeZone } from '../../common/rules/dates.js';

export class UsageError extends Error {}

export const variable = (name: string) => process.env[name]?.trim() || undefined;

export function numberVariable(name: string, fallback: number, { allowZero = false, integer = false } = {}): number {
  const raw = variable(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new UsageError(`${name} must be a ${integer ? 'whole ' : ''}number ${allowZero ? '>= 0' : '> 0'}, got '${raw}'`);
  return value;
}

/** Today where the server is (its APP_TIMEZONE, the server's default when unset): a visit dated later would be in the future. */
export const serverToday = () => dateInTimeZone(new Date(), variable('APP_TIMEZONE') ?? 'Asia/Kolkata');
