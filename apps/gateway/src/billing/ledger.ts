/**
 * The ledger of one gateway instance, assembled: replay what dead instances left, open this
 * instance's journal, start billing and the heartbeat. `stop` runs in the reverse order.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { BudgetAlerts } from '../budgets/alerts.js';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { type Billing, createBilling } from './billing.js';
import { createInstanceRegistry, recoverJournals } from './instances.js';
import { openJournal } from './journal.js';

export interface LedgerOptions {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** The instance's data directory: journals live in `<dataDir>/ledger/<database id>/`. */
  dataDir: string;
  leaseIdleMs?: number;
  /** The IANA zone budget periods start in. Default UTC. */
  budgetTimeZone?: string;
  /** Budget alerts (createBudgetAlerts); without them none is written. */
  budgetAlerts?: BudgetAlerts;
  metrics?: StandardMetrics;
  log?: Logger;
  heartbeatMs?: number;
  expireMs?: number;
}

export interface Ledger {
  billing: Billing;
  instanceId: string;
  /** Writes everything queued, returns this instance's holds and closes its journal. */
  stop(): Promise<void>;
}

/**
 * Where this database's journals live: `<dataDir>/ledger/<database id>/`, so a data directory used
 * with several databases never replays one's charges into another.
 */
export async function journalRoot(db: Kysely<DB>, dataDir: string): Promise<string> {
  const meta = await db.selectFrom('ledger_meta').select('database_id').executeTakeFirstOrThrow();
  return join(dataDir, 'ledger', meta.database_id);
}

/**
 * @example
 * const ledger = await startLedger({ db, kind: 'postgres', dataDir: '/var/lib/modelgate' });
 * const hold = await ledger.billing.hold(keyId, 2_000, { kind: 'text', requestId });
 * await ledger.stop();
 */
export async function startLedger(options: LedgerOptions): Promise<Ledger> {
  const { db, log } = options;
  const root = await journalRoot(db, options.dataDir);
  const instanceId = `gw-${randomBytes(8).toString('hex')}`;
  const recover = () =>
    recoverJournals(db, root, instanceId, { expireMs: options.expireMs, log }).catch(
      (err: unknown) => log?.warn('journal replay failed; retried on the next heartbeat', { err }),
    );
  await recover();

  const journal = openJournal(root, instanceId);
  const billing = createBilling(db, options.metrics, {
    kind: options.kind,
    leaseIdleMs: options.leaseIdleMs,
    budgetTimeZone: options.budgetTimeZone,
    budgetAlerts: options.budgetAlerts,
    owner: instanceId,
    journal,
    log,
  });
  const registry = createInstanceRegistry(db, instanceId, {
    heartbeatMs: options.heartbeatMs,
    expireMs: options.expireMs,
    log,
    onHoldsLost: () => billing.forgetLeases(),
    onBeat: recover,
  });
  await registry.start();
  return {
    billing,
    instanceId,
    async stop() {
      await billing.drain();
      await registry.stop();
      journal.close();
    },
  };
}
