/** Tables of migration 001_accounts: API keys and metered usage. */
import type { ColumnType, Generated } from 'kysely';

/** jsonb column: write `JSON.stringify(value)` (pg would send a JS array as a PG array), read parsed. */
export type Json<T> = ColumnType<
  T,
  string | (null extends T ? null : never),
  string | (null extends T ? null : never)
>;

export interface ApiKeysTable {
  id: Generated<number>;
  /** Hex SHA-256 of the whole key (`sk-…`); the key itself is never stored. */
  key_hash: string;
  /** First characters of the key for humans (`sk-AbC…`), never enough to use it. */
  key_prefix: string;
  name: string;
  role: 'admin' | 'user';
  /** Quota in units (1 credit = 1,000,000 units); null = unlimited (bootstrap admin). */
  quota: number | null;
  /** Units used: Σ usage rows + Σ holds + open video reservations (LEDGER.md). */
  used: Generated<number>;
  /** Allowed model ids (JSON array) or null for all. */
  models: Json<string[] | null>;
  rpm: number | null;
  tpm: number | null;
  /** Unix seconds. */
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export interface UsageTable {
  id: Generated<number>;
  key_id: number;
  /** 'text' | 'video' | anything a feature meters. */
  kind: string;
  model: string | null;
  /** Input tokens at the input price; cache reads and writes are counted apart (migration 008). */
  input_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_5m_tokens: number | null;
  cache_write_1h_tokens: number | null;
  output_tokens: number | null;
  seconds: number | null;
  units: number;
  request_id: string | null;
  /** Free-form reference, e.g. a video task id. */
  ref: string | null;
  created_at: number;
  /** The journal entry this row came from (`<instance>:<seq>`); null for rows written directly. */
  entry_id: string | null;
}

/** Units one gateway instance has reserved on a key and not yet settled (LEDGER.md). */
export interface LedgerHoldsTable {
  key_id: number;
  /** The instance id (`gateway_instances.id`). */
  owner: string;
  units: number;
}

/** Gateway instances sharing the database, with their heartbeat (milliseconds). */
export interface GatewayInstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at_ms: number;
  heartbeat_at_ms: number;
}

/** One row: this database's id, which names its journals (LEDGER.md). */
export interface LedgerMetaTable {
  database_id: string;
}

export interface AccountTables {
  ledger_meta: LedgerMetaTable;
  api_keys: ApiKeysTable;
  usage: UsageTable;
  ledger_holds: LedgerHoldsTable;
  gateway_instances: GatewayInstancesTable;
}
