/**
 * Budgets: an amount of units per period on a key or a team, reset at local midnight in
 * MODELGATE_BUDGET_TIME_ZONE. Importing this module also adds the budget columns and the `teams`
 * table to the database type.
 */

export {
  type BudgetAlertSettings,
  type BudgetAlerts,
  createBudgetAlerts,
  thresholdsReached,
} from './alerts.js';
export { budgetChange } from './change.js';
export type { BudgetLevel } from './levels.js';
export {
  BUDGET_PERIODS,
  type BudgetPeriod,
  isTimeZone,
  type PeriodBounds,
  periodBounds,
} from './period.js';
export type { BudgetAlertsTable, BudgetColumns, BudgetTables, TeamsTable } from './tables.js';
export {
  type CurrentBudget,
  currentBudget,
  type StoredBudget,
  storedBudget,
} from './view.js';
