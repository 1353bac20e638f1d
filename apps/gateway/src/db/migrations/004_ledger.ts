/**
 * The reconcilable ledger (docs: LEDGER.md). After this migration, for every key:
 *   used = Σ usage.units + Σ ledger_holds.units + Σ reserved_units of its open video tasks
 * and every statement that changes one side changes the other in the same statement.
 * - `ledger_holds`: what each gateway instance has reserved on a key and not yet settled (its
 *   requests' reservations and its lease). A dead instance's holds are returned by any other.
 * - `gateway_instances`: who is alive (heartbeat), so holds can be told live from orphaned.
 * - `ledger_meta`: this database's random id; journals are kept per database id, so a data
 *   directory used with several databases never replays one's charges into another.
 * - `usage.entry_id`: the journal entry a row came from, unique, so a replay never applies twice.
 * Existing keys get an opening `adjustment` usage row for whatever `used` held that the rows did
 * not explain (rows lost by earlier versions, leases held at shutdown), so the equation starts true.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gateway_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_meta')
    .addColumn('database_id', 'text', (c) => c.primaryKey())
    .execute();
  await sql`insert into ledger_meta (database_id)
    values (md5(random()::text || clock_timestamp()::text))`.execute(db);

  await db.schema
    .createTable('ledger_holds')
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull().check(sql`units >= 0`))
    .addPrimaryKeyConstraint('ledger_holds_pk', ['key_id', 'owner'])
    .execute();
  await db.schema.createIndex('ledger_holds_owner').on('ledger_holds').column('owner').execute();

  await db.schema.alterTable('usage').addColumn('entry_id', 'text').execute();
  await sql`create unique index usage_entry_id on usage (entry_id) where entry_id is not null`.execute(
    db,
  );
  // Reports, the request log and a console read usage by key, by model and by time.
  await db.schema
    .createIndex('usage_key_time')
    .on('usage')
    .columns(['key_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('usage_model_time')
    .on('usage')
    .columns(['model', 'created_at'])
    .execute();
  await db.schema.createIndex('usage_time').on('usage').column('created_at').execute();

  await sql`insert into usage (key_id, units, kind, created_at)
    select k.id, k.used - coalesce(u.units, 0) - coalesce(t.units, 0), 'adjustment',
      extract(epoch from now())::bigint
    from api_keys k
    left join (select key_id, sum(units) as units from usage group by key_id) u on u.key_id = k.id
    left join (select key_id, sum(reserved_units) as units from video_tasks
      where status in ('pending', 'in_progress') group by key_id) t on t.key_id = k.id
    where k.used <> coalesce(u.units, 0) + coalesce(t.units, 0)`.execute(db);
}
