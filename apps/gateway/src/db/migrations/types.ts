import type { Kysely } from 'kysely';

/** One migration: `up` runs inside the migration transaction (DDL is transactional in PostgreSQL). */
export interface Migration {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
  up(db: Kysely<any>): Promise<void>;
}
