/**
 * The whole database type for Kysely. The account tables are declared here; each feature adds its
 * own tables to `DB` from its `tables.ts` (`declare module '../db/schema.js'`), so the database
 * layer imports no feature: files/tables.ts, video/tables.ts, callbacks/tables.ts, audit/tables.ts.
 */
import type { AccountTables } from './account-tables.js';

export interface DB extends AccountTables {}
