/**
 * PGlite is PostgreSQL inside this process: two processes opening the same data directory would
 * corrupt it. A pid file next to the directory makes the second one fail with a clear message; a pid
 * file left by a crashed process (its pid no longer alive) is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the PGlite data directory ${dataDir} is in use by process ${pid}; stop it, or give this ` +
        'instance its own MODELGATE_DATA_DIR (or a shared PostgreSQL via DATABASE_URL)',
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take the lock; returns the release function.
 *
 * @example
 * const release = lockDataDir('/srv/modelgate/db');
 * // … later
 * release();
 */
export function lockDataDir(dataDir: string): () => void {
  const path = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid))
        throw new DataDirInUseError(dataDir, pid);
      // Stale (crashed process) or our own from an unclosed earlier open: take it over.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}
