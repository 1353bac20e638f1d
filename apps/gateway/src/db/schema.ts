/**
 * The whole database type for Kysely. Each feature declares its own table interfaces in its own folder
 * and adds ONE import and ONE `extends` entry here:
 *   FileVideoTables (VIDEO, src/files or src/video), CallbackTables (CB, src/callbacks).
 */
import type { CallbackTables } from '../callbacks/tables.js';
import type { FileVideoTables } from '../video/tables.js';
import type { AccountTables } from './account-tables.js';

export interface DB extends AccountTables, FileVideoTables, CallbackTables {}
