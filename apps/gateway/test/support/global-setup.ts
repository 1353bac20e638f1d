/**
 * Once per test run: two scratch folders (run-dir.ts), gone when the run ends. One holds the PGlite
 * templates every test database is copied from (pglite-template.ts), in memory where the machine
 * has /dev/shm; the other, under node_modules/.cache, the gateway's build for child processes
 * (child-gateway.ts), which must sit below node_modules to find its dependencies.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { initDataDir } from '../../src/db/pglite-init.js';
import { templateDir } from './run-dir.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const cache = resolve(import.meta.dirname, '../../node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const runDir = mkdtempSync(join(cache, 'mg-test-run-'));
  const pgliteRoot = mkdtempSync(
    join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mg-pglite-'),
  );
  const empty = templateDir(pgliteRoot, 'empty');
  const migrated = templateDir(pgliteRoot, 'migrated');
  await initDataDir(empty);
  cpSync(empty, migrated, { recursive: true });
  const database = await createDatabase({ dataDir: migrated });
  try {
    await migrate(database.db, database.kind);
  } finally {
    await database.close();
  }
  project.provide('testRunDir', runDir);
  project.provide('pgliteRoot', pgliteRoot);
  return () => {
    rmSync(runDir, { recursive: true, force: true });
    rmSync(pgliteRoot, { recursive: true, force: true });
  };
}
