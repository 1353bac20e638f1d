/**
 * Creates a PGlite data directory (initdb) in a short-lived CHILD PROCESS. PGlite 0.5.16 runs
 * initdb with a second, helper PGlite instance and a snapshot of its heap, and they stay reachable
 * after it finishes: done in the gateway's process this pins ≈ 500 MB for the process's lifetime
 * (and in a worker thread, the freed memory stays in malloc's arenas). A process that exits gives
 * all of it back.
 *
 * The child builds the directory next to the target (`<dataDir>.init`) and it is renamed into place
 * only when complete, so a crash during initdb never leaves a half-made database behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { evalSource } from './eval-source.js';

const require = createRequire(import.meta.url);

/**
 * The child's program (`node -e`, see eval-source.ts). It exits when its parent goes away (the IPC
 * channel closes), so a killed gateway leaves no initdb running behind it.
 */
function initChildMain(load: NodeJS.Require, argv: string[]): void {
  process.on('disconnect', () => process.exit(1));
  const [pglitePath, dataDir] = JSON.parse(argv[1]!) as [string, string];
  const { PGlite } = load(pglitePath) as typeof import('@electric-sql/pglite');
  PGlite.create({ dataDir })
    .then((pg) => pg.close())
    .then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
        process.exit(1);
      },
    );
}

function isDatabase(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/**
 * Make `dataDir` a PGlite database if it is not one yet; returns whether it was created. Call with
 * the directory's lock held (pglite-lock.ts).
 *
 * @example
 * const release = lockDataDir(dir);
 * await initDataDir(dir); // no-op when dir already holds a database
 */
export async function initDataDir(dataDir: string): Promise<boolean> {
  if (isDatabase(dataDir)) return false;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(
      `${dataDir} is not empty and holds no PGlite database; empty it or choose another MODELGATE_PGLITE_DIR`,
    );
  }
  const staging = `${dataDir}.init`;
  // Left by a process that died during initdb (its child exited with it).
  rmSync(staging, { recursive: true, force: true });
  const pglitePath = require.resolve('@electric-sql/pglite');
  const args = JSON.stringify([pglitePath, staging]);
  const child = spawn(process.execPath, ['-e', evalSource(initChildMain, pglitePath), args], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0 || !isDatabase(staging)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`PGlite initdb for ${dataDir} failed (exit code ${code}): ${stderr.trim()}`);
  }
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(staging, dataDir);
  return true;
}
