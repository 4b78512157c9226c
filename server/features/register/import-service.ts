/**
 * Loads a sheet into the register, all or nothing: every row is checked first (its own rules,
 * duplicates in the file, rules against the rest of the register), and a single bad row
 * means nothing is written and the answer names every bad row, column and rule. Rows upsert by
 * their natural key, so the same file twice changes nothing the second time; columns the file
 * does not have keep their stored values. A dry run does all of this but the write.
 */
import { sql } from 'drizzle-orm';
import {
  IMPORT_MAX_ROWS,
  type ImportResult,
  type ImportRowError,
  type RegisterKind,
} from '../../../common/schemas/register.js';
import { AppError } from '../../app-error.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { type Actor, type AuditRecord, auditOf, recordAudits } from '../../audit/index.js';
import { COLUMNS_OF, matchHeaders } from './columns.js';
import type { Sheet } from './read-sheet.js';
import { lazyModule } from '../../lazy-module.js';
import { type PlannedRow, type Register, REGISTERS } from './registers.js';

/** The file readers (exceljs, papaparse, yauzl), loaded with the first import rather than at start (server/lazy-module.ts). */
const loadSheetReader = lazyModule('the sheet reader', () => import('./read-sheet.js'));

/** Any number unique to this app; imports of one register run one at a time, on every instance. */
const IMPORT_LOCK_CLASS = 471_002_026;
const LOCK_OF: Record<RegisterKind, number> = { curves: 1, stations: 2 };
/** How many bad rows the message itself names; `rowErrors` names them all. */
const ERRORS_IN_MESSAGE = 3;

export interface ImportRequest {
  type: RegisterKind;
  bytes: Buffer;
  fileName: string;
  dryRun: boolean;
}

/** The file's columns: which field each names, and the header as the file spells it. */
interface Layout {
  fieldAt: (string | null)[];
  headerOf: Map<string, string>;
  unknownColumns: string[];
}

function layoutOf(kind: RegisterKind, sheet: Sheet, required: readonly string[]): Layout {
  const fieldAt = matchHeaders(kind, sheet.header);
  const headerOf = new Map<string, string>();
  const unknownColumns: string[] = [];
  fieldAt.forEach((field, index) => {
    const header = sheet.header[index] ?? '';
    if (field === null) {
      if (header !== '') unknownColumns.push(header);
      return;
    }
    const earlier = headerOf.get(field);
    if (earlier !== undefined) {
      const message = `The columns "${earlier}" and "${header}" both name ${field}: keep one`;
      throw new AppError('IMPORT_FILE_INVALID', message, { fields: { file: message } });
    }
    headerOf.set(field, header);
  });
  const headerText = (field: string) => COLUMNS_OF[kind].find((c) => c.field === field)?.header ?? field;
  const missing = required.filter((field) => !headerOf.has(field)).map(headerText);
  if (missing.length > 0) {
    const found = sheet.header.filter(Boolean).join(', ') || 'none';
    const message = `The first row must name the columns ${missing.join(', ')} (found: ${found})`;
    throw new AppError('IMPORT_FILE_INVALID', message, { fields: { file: message } });
  }
  return { fieldAt, headerOf, unknownColumns };
}

interface Checked<V> {
  rows: { row: number; values: V }[];
  errors: ImportRowError[];
}

/** Each row against its own rules, and its key against the rows above it. */
function checkEachRow<V extends Record<string, unknown>, R>(register: Register<V, R>, sheet: Sheet, layout: Layout): Checked<V> {
  const errors: ImportRowError[] = [];
  const rows: { row: number; values: V }[] = [];
  const firstRowOfKey = new Map<string, number>();
  const keyColumn = register.keyFields.map((f) => layout.headerOf.get(f) ?? f).join(', ');
  for (const { number, cells, cellErrors } of sheet.rows) {
    const input: Record<string, string> = {};
    layout.fieldAt.forEach((field, index) => {
      if (field !== null) input[field] = cells[index] ?? '';
    });
    let bad = false;
    for (const [index, value] of cellErrors ?? []) {
      const field = layout.fieldAt[index];
      if (field === null || field === undefined) continue;
      errors.push({ row: number, column: layout.headerOf.get(field) ?? field, message: `The cell holds the error value ${value}` });
      bad = true;
    }
    const parsed = register.schema.safeParse(input);
    if (!parsed.success) {
      const named = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (named.has(field)) continue;
        named.add(field);
        errors.push({ row: number, column: layout.headerOf.get(field) ?? field, message: issue.message });
      }
      continue;
    }
    if (bad) continue;
    const key = register.keyOf(parsed.data);
    const first = firstRowOfKey.get(key);
    if (first !== undefined) {
      errors.push({ row: number, column: keyColumn, message: `${capitalize(register.describe(parsed.data))} is also in row ${first}` });
      continue;
    }
    firstRowOfKey.set(key, number);
    rows.push({ row: number, values: parsed.data });
  }
  return { rows, errors };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return Object.keys(a).every((field) => a[field] === b[field]);
}

/** Each checked row against the register: added, changed (file values over stored ones) or unchanged. */
async function plan<V extends Record<string, unknown>, R>(
  db: DbOrTx,
  register: Register<V, R>,
  checked: Checked<V>,
  layout: Layout,
): Promise<{ planned: PlannedRow<V>[]; errors: ImportRowError[] }> {
  const stored = new Map<string, V>();
  for (const row of await register.findByKeys(db, checked.rows.map((r) => r.values))) {
    const values = register.valuesOf(row);
    stored.set(register.keyOf(values), values);
  }
  const present = [...layout.headerOf.keys()];
  const planned = checked.rows.map(({ row, values }): PlannedRow<V> => {
    const before = stored.get(register.keyOf(values)) ?? null;
    if (!before) return { row, values, before: null, status: 'added' };
    const merged = { ...before };
    for (const field of present) (merged as Record<string, unknown>)[field] = values[field];
    return { row, values: merged, before, status: sameValues(merged, before) ? 'unchanged' : 'changed' };
  });
  const errors = await register.checkRows(db, planned, (field) => layout.headerOf.get(field) ?? field);
  return { planned, errors };
}

function resultOf(type: RegisterKind, dryRun: boolean, layout: Layout, planned: readonly PlannedRow<unknown>[], rowErrors: ImportRowError[]): ImportResult {
  const counted = (status: PlannedRow<unknown>['status']) => planned.filter((p) => p.status === status).length;
  return {
    type,
    dryRun,
    valid: rowErrors.length === 0,
    count: planned.length,
    added: counted('added'),
    changed: counted('changed'),
    unchanged: counted('unchanged'),
    unknownColumns: layout.unknownColumns,
    rowErrors,
  };
}

function sortErrors(errors: ImportRowError[]): ImportRowError[] {
  return errors.sort((a, b) => a.row - b.row);
}

function rowsInvalid(errors: ImportRowError[]): AppError {
  const named = errors
    .slice(0, ERRORS_IN_MESSAGE)
    .map((e) => `row ${e.row}, ${e.column}: ${e.message}`)
    .join('; ');
  const more = errors.length > ERRORS_IN_MESSAGE ? ` (and ${errors.length - ERRORS_IN_MESSAGE} more)` : '';
  const rows = new Set(errors.map((e) => e.row)).size;
  return new AppError('IMPORT_ROWS_INVALID', `${rows} ${rows === 1 ? 'row is' : 'rows are'} not valid, nothing was imported: ${named}${more}`, {
    rowErrors: errors,
  });
}

export function createRegisterImportService(deps: { db: Db }) {
  async function run<V extends Record<string, unknown>, R>(register: Register<V, R>, actor: Actor, request: ImportRequest): Promise<ImportResult> {
    const { readSheet } = await loadSheetReader();
    const sheet = await readSheet(request.bytes, IMPORT_MAX_ROWS);
    const layout = layoutOf(register.kind, sheet, register.required);
    const checked = checkEachRow(register, sheet, layout);

    if (request.dryRun) {
      const { planned, errors } = await plan(deps.db, register, checked, layout);
      return resultOf(register.kind, true, layout, planned, sortErrors([...checked.errors, ...errors]));
    }
    if (checked.errors.length > 0) {
      // Name every bad row, as the dry run does: the rules between rows too.
      const { errors } = await plan(deps.db, register, checked, layout);
      throw rowsInvalid(sortErrors([...checked.errors, ...errors]));
    }

    return deps.db.transaction(async (tx) => {
      // Two imports of one register at once would each count rows the other is adding.
      await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_CLASS}, ${LOCK_OF[register.kind]})`);
      const { planned, errors } = await plan(tx, register, checked, layout);
      if (errors.length > 0) throw rowsInvalid(sortErrors(errors));
      const writes = planned.filter((p) => p.status !== 'unchanged');
      await register.write(tx, writes);
      const result = resultOf(register.kind, false, layout, planned, []);
      const audits: AuditRecord[] = writes.map((p) =>
        auditOf(actor, {
          action: `${register.entity}.import`,
          entity: register.entity,
          entityId: register.auditId(p.values).slice(0, 200),
          before: p.before,
          after: p.values,
        }),
      );
      // Who loaded which file, even when it changed nothing.
      audits.push(
        auditOf(actor, {
          action: `${register.entity}.import`,
          entity: 'register-import',
          entityId: request.fileName.slice(0, 200),
          before: null,
          after: { type: result.type, fileName: request.fileName, count: result.count, added: result.added, changed: result.changed, unchanged: result.unchanged },
        }),
      );
      await recordAudits(tx, audits);
      return result;
    });
  }

  return {
    import(actor: Actor, request: ImportRequest): Promise<ImportResult> {
      return request.type === 'curves' ? run(REGISTERS.curves, actor, request) : run(REGISTERS.stations, actor, request);
    },
  };
}

export type RegisterImportService = ReturnType<typeof createRegisterImportService>;
