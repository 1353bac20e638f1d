/** The Responses API state table (migration 007_responses). */
import type { Response as ModelResponse, ResponseInputItem } from '@modelgate/core';
import type { ColumnType } from 'kysely';

declare module '../db/schema.js' {
  interface DB extends ResponsesTables {}
}

/** jsonb: written as JSON text, read parsed. */
type Json<T> = ColumnType<T, string, string>;

export interface TextResponsesTable {
  /** `resp_` + 32 hex characters. */
  id: string;
  key_id: number;
  /** The conversation the response was created from: the previous ones' items and outputs, then its input. */
  items: Json<ResponseInputItem[]>;
  response: Json<ModelResponse>;
  created_at_ms: number;
}

export interface ResponsesTables {
  text_responses: TextResponsesTable;
}
