/**
 * Usage records found by request id (`GET /v1/usage/records?request_id=…`): what an operator
 * looks up when a user quotes the `x-request-id` of a response.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index usage_request_id on usage (request_id) where request_id is not null`.execute(
    db,
  );
}
