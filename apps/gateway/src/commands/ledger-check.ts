/**
 * `modelgate-gateway ledger check` (`pnpm --filter @modelgate/gateway ledger:check`): prints the
 * ledger per key (and each budget's spend, billing/budget-check.ts) from the configured database
 * and exits 1 when it does not balance. It first replays the journals that stopped instances left
 * in this data directory, as a starting gateway would, so a check after a crash reports what the
 * ledger holds once recovered. It reads the same data directory as `pnpm start`
 * (config/database.ts). On PostgreSQL it runs beside live gateways; the embedded database is
 * locked while a gateway runs, so there it says, in one line, to stop the gateway first.
 */
import { existsSync } from 'node:fs';
import { budgetsBalance, checkBudgets, formatBudgets } from '../billing/budget-check.js';
import { INSTANCE_EXPIRE_MS, recoverJournals, returnHolds } from '../billing/instances.js';
import { journalRoot } from '../billing/ledger.js';
import { checkLedger, formatLedger, ledgerBalances } from '../billing/ledger-check.js';
import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { createDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { DataDirInUseError } from '../db/pglite-lock.js';

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
    const budgets = await checkBudgets(database.db);
    if (budgets.length > 0) out(`\n${formatBudgets(budgets)}\n`);
    return ledgerBalances(rows) && budgetsBalance(budgets) ? 0 : 1;
  } finally {
    await database.close();
  }
}

/** Exit codes of `ledger check`: 0 balanced, 1 unbalanced, 2 it could not run. */
export const CANNOT_RUN = 2;

/**
 * The command as `main` runs it: configuration from `env`, the ledger on stdout, and anything that
 * stops the check as one line on stderr (exit 2), never a stack trace.
 */
export async function ledgerCheckCommand(
  env: NodeJS.ProcessEnv,
  flags: readonly string[],
  io: { out: (text: string) => void; err: (text: string) => void } = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  },
): Promise<number> {
  try {
    const config = loadConfig(env);
    if (
      config.databaseUrl === null &&
      !config.pgliteDir.includes('://') &&
      !existsSync(config.pgliteDir)
    ) {
      // Opening it would create an empty database and report "0 keys, difference 0": balanced
      // books that are not the operator's.
      io.err(
        `modelgate: ledger check cannot run: no ledger in ${config.dataDir} (no gateway has run with ` +
          'this data directory); start the gateway once, or set MODELGATE_DATA_DIR or DATABASE_URL to where it runs\n',
      );
      return CANNOT_RUN;
    }
    return await runLedgerCheck(config, io.out, { sweep: flags.includes('--sweep') });
  } catch (err) {
    io.err(`modelgate: ledger check cannot run: ${cannotRunReason(err)}\n`);
    return CANNOT_RUN;
  }
}

function cannotRunReason(err: unknown): string {
  if (err instanceof DataDirInUseError) {
    return (
      `the gateway (process ${err.pid}) holds the embedded database in ${err.dataDir}; ` +
      'stop the gateway first, then run the check again (with DATABASE_URL it runs beside live gateways)'
    );
  }
  if (err instanceof ConfigError) return `configuration error: ${err.message}`;
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? message;
}
