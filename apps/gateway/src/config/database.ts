/** Where the data lives: the data directory, PGlite inside it, or PostgreSQL. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { variable } from './section.js';

export interface DatabaseSettings {
  /** MODELGATE_DATA_DIR, default ./.modelgate (PGlite data, stored files, generated admin key). */
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

export const databaseSection = z
  .object({ env: z.object(databaseVariables) })
  .transform(({ env }): DatabaseSettings => {
    const dataDir = resolve(env.MODELGATE_DATA_DIR ?? './.modelgate');
    return {
      dataDir,
      databaseUrl: env.DATABASE_URL ?? null,
      pgliteDir: env.MODELGATE_PGLITE_DIR ?? `${dataDir}/db`,
    };
  });
