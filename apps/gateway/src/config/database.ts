/** Where the data lives: the data directory, PGlite inside it, or PostgreSQL. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { variable } from './section.js';

export interface DatabaseSettings {
  /**
   * MODELGATE_DATA_DIR, default `.modelgate` in the repository root (PGlite data, stored files,
   * generated admin key).
   */
  dataDir: string;
  /** DATABASE_URL or null (→ PGlite in dataDir). */
  databaseUrl: string | null;
  /** PGlite location: `${dataDir}/db`, or 'memory://' (tests). */
  pgliteDir: string;
}

export const databaseVariables = {
  MODELGATE_DATA_DIR: variable.text(),
  MODELGATE_PGLITE_DIR: variable.text(),
  DATABASE_URL: variable.url(['postgres:', 'postgresql:']),
};

/**
 * The default data directory: `.modelgate` in the nearest directory at or above `cwd` holding
 * `pnpm-workspace.yaml` (the repository root), else in `cwd`. Why not just `./.modelgate`: pnpm runs
 * a package's scripts inside that package, so `pnpm --filter @modelgate/gateway ledger:check` would
 * open an empty `apps/gateway/.modelgate` while `pnpm start` (run from the root) keeps the books in
 * the root's.
 */
export function defaultDataDir(cwd: string = process.cwd()): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return join(dir, '.modelgate');
    if (dirname(dir) === dir) return resolve(cwd, '.modelgate');
  }
}

export const databaseSection = z
  .object({ env: z.object(databaseVariables) })
  .transform(({ env }): DatabaseSettings => {
    const dataDir = env.MODELGATE_DATA_DIR ? resolve(env.MODELGATE_DATA_DIR) : defaultDataDir();
    return {
      dataDir,
      databaseUrl: env.DATABASE_URL ?? null,
      pgliteDir: env.MODELGATE_PGLITE_DIR ?? `${dataDir}/db`,
    };
  });
