/** Once per test run: the PGlite template every test database is copied from (pglite-template.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { initDataDir } from '../../src/db/pglite-init.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'mg-pglite-'));
  // The gateway's own initdb, so the template is what a new data directory holds.
  await initDataDir(join(root, 'template'));
  project.provide('pgliteRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
