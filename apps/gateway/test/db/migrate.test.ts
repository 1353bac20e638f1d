import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { migrate, migrationsComplete } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { eachDatabase, type FreshDatabase, freshDatabase } from '../support/index.js';

describe.each(eachDatabase())('migrations on $name', (target) => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase(target, { empty: true });
  });
  afterAll(() => fresh?.drop());

  it('applies every migration once, even when two instances start together', async () => {
    const a = await createDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.pgliteDir });
    // PGlite is one process: a second "instance" is the same handle racing itself.
    const b =
      a.kind === 'postgres'
        ? await createDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.pgliteDir })
        : a;
    try {
      const [ra, rb] = await Promise.all([migrate(a.db, a.kind), migrate(b.db, b.kind)]);
      const applied = [...ra.applied, ...rb.applied].sort();
      expect(applied).toEqual(migrations.map((m) => m.name).sort());
      expect(await migrationsComplete(a.db)).toBe(true);
      expect((await migrate(a.db, a.kind)).applied).toEqual([]);
    } finally {
      if (b !== a) await b.close();
      await a.close();
    }
  });
});
