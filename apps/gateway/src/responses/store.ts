/**
 * Where the gateway keeps Responses API state: one row per response, scoped to the key that
 * created it (another key's id reads as absent, so the API answers 404), deleted by the sweep once
 * older than the retention.
 */
import type { Response as ModelResponse, ResponseInputItem } from '@modelgate/core';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import './tables.js';

export interface StoredResponse {
  items: ResponseInputItem[];
  response: ModelResponse;
}

export interface ResponseStore {
  save(keyId: number, stored: StoredResponse): Promise<void>;
  /** The key's response, or null (absent, expired or another key's). */
  load(keyId: number, id: string): Promise<StoredResponse | null>;
  /** True when the key's response existed and is now gone. */
  remove(keyId: number, id: string): Promise<boolean>;
  /** Deletes the responses created before `beforeMs`; returns how many. */
  sweep(beforeMs: number): Promise<number>;
}

/** jsonb arrives parsed from pg and PGlite; text if a driver hands it over as such. */
function parsed<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

export function createResponseStore(db: Kysely<DB>): ResponseStore {
  return {
    async save(keyId, { items, response }) {
      await db
        .insertInto('text_responses')
        .values({
          id: response.id,
          key_id: keyId,
          items: JSON.stringify(items),
          response: JSON.stringify(response),
          created_at_ms: Date.now(),
        })
        .execute();
    },
    async load(keyId, id) {
      const row = await db
        .selectFrom('text_responses')
        .select(['items', 'response'])
        .where('id', '=', id)
        .where('key_id', '=', keyId)
        .executeTakeFirst();
      return row ? { items: parsed(row.items), response: parsed(row.response) } : null;
    },
    async remove(keyId, id) {
      const result = await db
        .deleteFrom('text_responses')
        .where('id', '=', id)
        .where('key_id', '=', keyId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async sweep(beforeMs) {
      const result = await db
        .deleteFrom('text_responses')
        .where('created_at_ms', '<', beforeMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
