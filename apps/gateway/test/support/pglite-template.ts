/**
 * PGlite data directories made once per test run and copied for each test database.
 *
 * Making a database is most of what opening a new PGlite costs: on a 2-core AMD EPYC, initdb takes
 * 4.6 s alone and 8-9 s beside another test file, and the migrations 0.5-3 s more; copying the
 * finished directory (40 MB) takes 0.3 s and opening the copy 0.45 s. With about a hundred test
 * files each opening one, the copies save the suite minutes. The copies live in /dev/shm where
 * there is one, as the in-memory databases did: the busiest test (4,000 reserves, alone) took
 * 7.8 s on a copy on disk against 6.0-7.1 s in /dev/shm.
 *
 * Two templates, both made by the gateway's own code (global-setup.ts): `empty` (initdb only), for
 * the tests of the migrations themselves, and `migrated` (every migration applied), for the rest.
 * The setup hands their place to the test files with vitest's provide/inject; a test run without
 * that setup gets in-memory databases instead.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type PgliteTemplate, templateDir } from './run-dir.js';

/**
 * A copy of a template in a folder of its own, and how to remove it; null when the run has no
 * templates (the caller falls back to an in-memory database).
 *
 * @example
 * const copy = copyPgliteTemplate('migrated');
 * const db = await createDatabase({ dataDir: copy?.dir ?? 'memory://' });
 */
export function copyPgliteTemplate(
  template: PgliteTemplate,
): { dir: string; remove(): void } | null {
  const root = inject('pgliteRoot');
  if (!root) return null;
  const dir = mkdtempSync(join(root, 'db-'));
  cpSync(templateDir(root, template), dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
