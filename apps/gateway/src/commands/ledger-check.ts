/**
 * `modelgate-gateway ledger check` (`pnpm --filter @modelgate/gateway ledger:check`): prints the
 * ledger per key from the configured database and exits 1 when it does not balance. It first
 * replays the journals that stopped instances left in this data directory, as a starting gateway
 * would, so a check after a crash reports what the ledger holds once recovered. On the embedded
 * database run it while the gateway is stopped (its data directory is locked while it runs).
 */
import { INSTANCE_EXPIRE_MS, recoverJournals, returnHolds } from '../billing/instances.js';
import { journalRoot } from '../billing/ledger.js';
import { checkLedger, formatLedger, ledgerBalances } from '../billing/ledger-check.js';
import type { Config } from '../config/config.js';
import { createDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';

export interface LedgerCheckOptions {
  /** Also return the holds of instances whose heartbeat expired (what any live gateway does). */
  sweep?: boolean;
  expireMs?: number;
}

/** Returns the process exit code: 0 when the ledger balances, 1 when it does not. */
export async function runLedgerCheck(
  config: Config,
  out: (text: string) => void,
  options: LedgerCheckOptions = {},
): Promise<number> {
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.pgliteDir,
  });
  try {
    await migrate(database.db, database.kind);
    const root = await journalRoot(database.db, config.dataDir);
    const replayed = await recoverJournals(database.db, root, 'ledger-check', {
      expireMs: options.expireMs,
    });
    if (replayed > 0) out(`replayed ${replayed} journal entries of stopped instances\n`);
    if (options.sweep) {
      await returnHolds(database.db, {
        expiredBeforeMs: Date.now() - (options.expireMs ?? INSTANCE_EXPIRE_MS),
      });
    }
    const rows = await checkLedger(database.db, options.expireMs);
    out(`${formatLedger(rows)}\n`);
    return ledgerBalances(rows) ? 0 : 1;
  } finally {
    await database.close();
  }
}
