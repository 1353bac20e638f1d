/**
 * Budgets' and teams' columns (migration 009_budgets), the alerts written (011_budget_alerts) and
 * the budgets a usage row moved (012_budget_usage).
 */
import type { Generated } from 'kysely';
import type { BudgetPeriod } from './period.js';

declare module '../db/schema.js' {
  interface DB extends BudgetTables {}
}

declare module '../db/account-tables.js' {
  interface ApiKeysTable extends BudgetColumns {
    /** The team whose budget this key's spend also counts against, or null. */
    team_id: number | null;
  }
  interface UsageTable extends BudgetUsageColumns {}
}

/** What a usage row's settlement did to the budgets (LEDGER.md "Budgets"). */
export interface BudgetUsageColumns {
  /** The instant (Unix seconds) of the reservation whose budgets it moved; null when none moved. */
  budget_at: number | null;
  /** Whether the key's own budget moved. */
  budget_key: Generated<boolean>;
  /** The team whose budget moved, or null. */
  budget_team_id: number | null;
}

/** A budget on a row: all null (spent 0) without one. Instants are Unix seconds. */
export interface BudgetColumns {
  /** Units allowed per period (the same units as quota). */
  budget_amount: number | null;
  budget_period: BudgetPeriod | null;
  /** Units reserved or charged since `budget_period_start`. */
  budget_spent: Generated<number>;
  budget_period_start: number | null;
  /** When the period resets (exclusive end). */
  budget_period_end: number | null;
}

export interface TeamsTable extends BudgetColumns {
  id: Generated<number>;
  name: string;
  /** Where this team's budget alerts go; null for the global alert URL. */
  alert_url: string | null;
  /** Unix seconds. */
  created_at: number;
}

/** An alert already written (migration 011_budget_alerts): one per owner, period and threshold. */
export interface BudgetAlertsTable {
  owner_kind: 'key' | 'team';
  owner_id: number;
  /** The period's start (Unix seconds): a new period alerts again. */
  period_start: number;
  threshold: 80 | 100;
  /** The webhook-id of the outbox row written with it. */
  delivery_id: string | null;
  /** Unix seconds. */
  created_at: number;
}

export interface BudgetTables {
  teams: TeamsTable;
  budget_alerts: BudgetAlertsTable;
}
