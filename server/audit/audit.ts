/**
 * The audit trail: one row per administrative write, recorded inside the same transaction
 * as the write, so a change and its record stand or fall together. `before` and `after`
 * are public shapes only: never a password or a hash.
 */
import type { AuditEntry, AuditListQuery, AuditListResponse } from '../../common/schemas/audit.js';
import type { PublicUser } from '../../common/schemas/auth.js';
import type { Db, DbOrTx } from '../db/client.js';
import { countAuditRows, insertAuditRows, listAuditRows, type AuditRow, type NewAuditRow } from './repository.js';

export type AuditAction =
  | 'user.create'
  | 'user.reset-password'
  | 'user.change-password'
  | 'user.deactivate'
  | 'user.reactivate'
  /** A write to a user that was refused (after: what was attempted and why). */
  | 'user.refused'
  | 'inspection.delete'
  | 'curve.create'
  | 'curve.update'
  | 'curve.delete'
  | 'curve.import'
  | 'station.create'
  | 'station.update'
  | 'station.delete'
  | 'station.import'
  | 'machine-summary.update'
  | 'files.restore'
  | 'files.recreate'
  | 'action.close'
  | 'action.reopen'
  /** An action whose every report was deleted with its record: nothing is left to fix. */
  | 'action.withdraw';

/** Who asked, for the audit trail. */
export interface Actor {
  user: PublicUser;
  requestId: string;
}

/** The audit record of one write by an actor. */
export function auditOf(
  actor: Actor,
  entry: { action: AuditAction; entity: string; entityId: string | null; before: AuditState | null; after: AuditState | null },
): AuditRecord {
  return { actor: actor.user, requestId: actor.requestId, ...entry };
}

/** A JSON object of public fields. */
export type AuditState = Record<string, unknown>;

export interface AuditRecord {
  actor: Pick<PublicUser, 'id' | 'employeeId'> | null;
  action: AuditAction;
  entity: string;
  entityId: string | null;
  before: AuditState | null;
  after: AuditState | null;
  requestId: string | null;
}

/** Keys that must never reach the audit log, whatever a caller passes. */
const SECRET_KEY = /password|hash|token|secret/i;

function scrub(state: AuditState | null): AuditState | null {
  if (!state) return null;
  return Object.fromEntries(
    Object.entries(state).filter(([key, value]) => !SECRET_KEY.test(key) || (key === 'passwordChanged' && typeof value === 'boolean')),
  );
}

function toAuditRow(record: AuditRecord): NewAuditRow {
  return {
    actorUserId: record.actor?.id ?? null,
    actorEmployeeId: record.actor?.employeeId ?? null,
    action: record.action,
    entity: record.entity,
    entityId: record.entityId,
    before: scrub(record.before),
    after: scrub(record.after),
    requestId: record.requestId?.slice(0, 64) ?? null,
  };
}

export async function recordAudit(tx: DbOrTx, record: AuditRecord): Promise<void> {
  await insertAuditRows(tx, [toAuditRow(record)]);
}

/** Several entries in one statement (a batch deletion writes one per record). */
export async function recordAudits(tx: DbOrTx, records: readonly AuditRecord[]): Promise<void> {
  await insertAuditRows(tx, records.map(toAuditRow));
}

const asState = (value: unknown): AuditState | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as AuditState) : null;

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorEmployeeId: row.actorEmployeeId,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    before: asState(row.before),
    after: asState(row.after),
  };
}

export function createAuditService(deps: { db: Db }) {
  return {
    async list(page: AuditListQuery): Promise<AuditListResponse> {
      const [rows, total] = await Promise.all([listAuditRows(deps.db, page), countAuditRows(deps.db)]);
      return { entries: rows.map(toAuditEntry), total };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
