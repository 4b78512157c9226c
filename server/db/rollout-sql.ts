/**
 * The per-curve rollout records (curve_records) read in SQL, as common/rules/rollout.ts reads
 * them: which record is a register curve's, and whether its stages say the machine is there.
 * The machine report matches records to the register with rolloutRecordOfCurve, and the
 * schedule (server/features/schedule) asks rolloutMachineSql of the record it finds the same
 * way; rollout-sql.test.ts holds the stage reading to stageEntry on the same entries.
 */
import { type SQL, sql } from 'drizzle-orm';
import { MONTHS, STAGE_DONE_WORDS } from '../../common/rules/rollout.js';
import { recordLineOf } from './sql-helpers.js';

/** A curve's key columns: section, curve number and line (spelt as a code or as the records do). */
export interface CurveKeyColumns {
  section: SQL;
  curveNumber: SQL;
  line: SQL;
}

/**
 * A rollout record belongs to the register curve with the same section, curve number and line,
 * whichever way either spells the line. The division is not compared: a section belongs to one
 * division, and the dashboard has always matched this way.
 */
export function rolloutRecordOfCurve(register: CurveKeyColumns, record: CurveKeyColumns): SQL {
  return sql`${record.section} = ${register.section} and ${record.curveNumber} = ${register.curveNumber}
    and ${recordLineOf(record.line)} = ${recordLineOf(register.line)}`;
}

/** What JavaScript's trim() and \s take for space: every Unicode space and line end, as the rule trims. */
const SPACE = '\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const TRIM = `^[${SPACE}]+|[${SPACE}]+$`;
// The rule's date shapes (rollout.ts), with ASCII digits as JavaScript's \d means.
const DAY_FIRST = '^([0-9]{1,2})[./-]([0-9]{1,2})[./-]([0-9]{4})$';
const ISO = '^([0-9]{4})-([0-9]{2})-([0-9]{2})$';
const DAY_MONTH_NAME = `^([0-9]{1,2})[${SPACE}-]([A-Za-z]{3})[a-z]*[${SPACE}-]([0-9]{4})$`;

/** A day that exists (not 31.02.2025) in a year the rule accepts; guarded so make_date never fails. */
function realDate(year: SQL, month: SQL, day: SQL): SQL {
  return sql`(case when ${month} between 1 and 12 and ${year} between 1900 and 2999
    then ${day} between 1 and extract(day from make_date(${year}, ${month}, 1) + interval '1 month' - interval '1 day')
    else false end)`;
}

/**
 * stageEntry(entry).done in SQL: a real date in one of the sheets' shapes, or a word such as
 * 'Done'. The schedule reads it for every curve: the cheap tests go first (CASE keeps the
 * order), and a date is taken apart only when its shape matched.
 */
export function stageDoneSql(entry: SQL): SQL {
  const months = sql`array[${sql.join(
    MONTHS.map((m) => sql`${m}`),
    sql`, `,
  )}]::text[]`;
  const words = sql.join(
    STAGE_DONE_WORDS.map((w) => sql`${w}`),
    sql`, `,
  );
  const parts = (pattern: string, date: SQL) => sql`(select ${date} from (select regexp_match(t, ${pattern}) as m) matched)`;
  return sql`(select case
      when t is null or t = '' then false
      when lower(t) in (${words}) then true
      when t ~ ${DAY_FIRST} then ${parts(DAY_FIRST, realDate(sql`m[3]::int`, sql`m[2]::int`, sql`m[1]::int`))}
      when t ~ ${ISO} then ${parts(ISO, realDate(sql`m[1]::int`, sql`m[2]::int`, sql`m[3]::int`))}
      when t ~ ${DAY_MONTH_NAME} then ${parts(DAY_MONTH_NAME, realDate(sql`m[3]::int`, sql`array_position(${months}, lower(m[2]))`, sql`m[1]::int`))}
      else false end
    from (select regexp_replace(${entry}, ${TRIM}, '', 'g') as t) trimmed)`;
}

/** rolloutHasMachine in SQL: the record's machine is installed or commissioned. */
export function rolloutMachineSql(machine: SQL, commissioned: SQL): SQL {
  return sql`(case when ${stageDoneSql(machine)} then true else ${stageDoneSql(commissioned)} end)`;
}
