/**
 * Every migration, in order. Each owner adds ONE line for its migration file; names never change once
 * released (they are recorded in `modelgate_migrations`).
 */
import * as m001 from './001_accounts.js';
import * as m002 from './002_files_video.js';
import * as m003 from './003_callbacks.js';
import * as m004 from './004_ledger.js';
import * as m005 from './005_usage_requests.js';
import * as m006 from './006_audit.js';
import * as m007 from './007_responses.js';
import * as m008 from './008_usage_cache.js';
import * as m009 from './009_budgets.js';
import * as m010 from './010_usage_hourly.js';
import * as m011 from './011_budget_alerts.js';
import * as m012 from './012_budget_usage.js';
import type { Migration } from './types.js';

export type { Migration } from './types.js';

export const migrations: Migration[] = [
  { name: '001_accounts', up: m001.up },
  { name: '002_files_video', up: m002.up },
  { name: '003_callbacks', up: m003.up },
  { name: '004_ledger', up: m004.up },
  { name: '005_usage_requests', up: m005.up },
  { name: '006_audit', up: m006.up },
  { name: '007_responses', up: m007.up },
  { name: '008_usage_cache', up: m008.up },
  { name: '009_budgets', up: m009.up },
  { name: '010_usage_hourly', up: m010.up },
  { name: '011_budget_alerts', up: m011.up },
  { name: '012_budget_usage', up: m012.up },
];
