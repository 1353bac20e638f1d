/** The audit log's table (migration 006_audit). */
import type { AuditAction, AuditEntry } from '@modelgate/core';
import type { Generated } from 'kysely';
import type { Json } from '../db/account-tables.js';

declare module '../db/schema.js' {
  interface DB extends AuditTables {}
}

export interface AuditLogTable {
  id: Generated<number>;
  /** Unix seconds. */
  created_at: number;
  action: AuditAction;
  actor_key_id: number;
  request_id: string | null;
  target_type: AuditEntry['target']['type'];
  target_id: string;
  before: Json<AuditEntry['before']>;
  after: Json<AuditEntry['after']>;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
