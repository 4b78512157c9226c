/**
 * The audit trail, shared by every feature that writes on an administrator's behalf: each
 * write records its entry in its own transaction; the audit feature's route reads them back.
 */
export {
  type Actor,
  type AuditAction,
  type AuditRecord,
  type AuditService,
  type AuditState,
  auditOf,
  createAuditService,
  recordAudit,
  recordAudits,
} from './audit.js';
