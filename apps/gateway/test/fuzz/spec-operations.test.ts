/**
 * Property-based fuzzing of every operation in spec/openapi.yaml against a real gateway (PGlite,
 * and PostgreSQL when DATABASE_URL is set): requests generated from the spec's own schemas, at
 * and past every boundary and with hostile text, must never get a 5xx, never crash the gateway,
 * and always get the documented error shape. Every path is also called with the methods it does
 * not have (405 + Allow).
 *
 * Short by default (fixed seed, CI); `FUZZ_RUNS=2000 npx vitest run test/fuzz` for a long run,
 * `FUZZ_SEED=<n>` to replay another seed (see apps/gateway/FUZZING.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { requestFor } from './requests.js';
import { checkProperty, expectWellFormed, FUZZ_SEED, fuzzRuns, fuzzTimeout, send } from './send.js';
import { specOperations } from './spec.js';

const OPERATIONS = specOperations();
const RUNS = fuzzRuns(30);
const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'];

describe.each(eachDatabase())('spec-driven fuzzing on $name', (database) => {
  let gw: TestGateway;
  let keys: { user: string; admin: string };
  let tried = 0;

  beforeAll(async () => {
    gw = await startTestGateway({ database });
    keys = { user: (await gw.createKey({ quota: 1e12 })).key, admin: gw.adminKey };
  });
  afterAll(async () => {
    console.log(`fuzz (${database.name}): ${tried} spec-generated requests, seed ${FUZZ_SEED}`);
    await gw?.close();
  });

  it('walks every operation of the spec', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(16);
  });

  it.each(OPERATIONS.map((op) => [op.id, op] as const))(
    '%s',
    async (_id, op) => {
      tried += await checkProperty(
        requestFor(op, keys),
        async (req) => expectWellFormed(req, await send(gw.url, req)),
        RUNS,
      );
      // Still alive and answering.
      expect((await send(gw.url, { method: 'GET', path: '/healthz', headers: {} })).status).toBe(
        200,
      );
    },
    fuzzTimeout(RUNS),
  );

  it('answers a method a path does not have with 405 and Allow, in the documented shape', async () => {
    const paths = [...new Set(OPERATIONS.map((op) => op.path))];
    for (const template of paths) {
      const path = template.replace(/\{[^}]+\}/g, 'x');
      const documented = OPERATIONS.filter((op) => op.path === template).map((op) => op.method);
      for (const method of ALL_METHODS.filter((m) => !documented.includes(m) && m !== 'HEAD')) {
        if (method === 'OPTIONS') continue; // a CORS preflight, answered before routing
        tried++;
        const req = { method, path, headers: { authorization: `Bearer ${keys.user}` } };
        const res = await send(gw.url, req);
        expectWellFormed(req, res);
        expect(res.status, `${method} ${path}`).toBe(405);
        for (const m of documented) expect(String(res.headers.allow)).toContain(m);
      }
    }
  });
});
