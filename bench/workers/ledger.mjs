#!/usr/bin/env node
// Ledger throughput, in its own process: the gateway's own key and billing services (from its
// built dist, through startGateway's `services`) driven directly, with 1 and with N concurrent
// callers, on PGlite or PostgreSQL. Every loop stops at its time budget.
//   node bench/workers/ledger.mjs '{"database":"pglite","durationMs":2000,"concurrency":[1,50]}'
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const job = JSON.parse(process.argv[2]);
const gatewayIndex = path.resolve(import.meta.dirname, '../../apps/gateway/dist/index.js');
const { startGateway } = await import(pathToFileURL(gatewayIndex).href);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'modelgate-ledger-'));
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const adminKey = `sk-${Array.from(randomBytes(48), (b) => alphabet[b % 62]).join('')}`;
const gateway = await startGateway({
  env: {
    PORT: '0',
    CDN_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    MODELGATE_DATA_DIR: dataDir,
    GATEWAY_ADMIN_KEY: adminKey,
    // A provider key keeps the gateway out of demo mode (no simulator); nothing calls it here.
    OPENAI_API_KEY: 'sk-unused',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    ...(job.databaseUrl ? { DATABASE_URL: job.databaseUrl } : {}),
  },
});
const { keys, billing } = gateway.services;

const maxConcurrency = Math.max(...job.concurrency);
const callers = [];
for (let i = 0; i < maxConcurrency; i++) {
  const { key, record } = await keys.create({ name: `ledger-${i}`, quota: 1e15 });
  callers.push({ secret: key, id: record.id });
}

/**
 * Runs `op(callerIndex)` in `concurrency` loops until the time budget is spent; `op.drain`, when
 * there is one, then waits for the work the op left behind, and that time counts too.
 */
async function measure(concurrency, op, durationMs = job.durationMs) {
  const started = performance.now();
  const end = started + durationMs;
  let ops = 0;
  let errors = 0;
  let firstError = null;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < end && ops < 10_000_000) {
        try {
          await op(i);
          ops++;
        } catch (error) {
          errors++;
          firstError ??= String(error?.message ?? error);
          if (errors > 1000) return;
        }
      }
    }),
  );
  await op.drain?.();
  const seconds = (performance.now() - started) / 1000;
  return { opsPerS: ops / seconds, ops, errors, ...(firstError ? { firstError } : {}) };
}

// Budgeted callers take no lease: each reservation is the budget's transaction. One set with a
// budget on the key, one set of keys in a team with a budget (two conditional UPDATEs each).
const { db } = gateway.services;
const { id: teamId } = await db
  .insertInto('teams')
  .values({
    name: 'bench',
    alert_url: null,
    created_at: 0,
    budget_amount: 1e15,
    budget_period: 'month',
  })
  .returning('id')
  .executeTakeFirstOrThrow();
async function budgetedCallers(name, budget, team) {
  const out = [];
  for (let i = 0; i < maxConcurrency; i++) {
    const { record } = await keys.create({ name: `${name}-${i}`, quota: 1e15 });
    await db
      .updateTable('api_keys')
      .set({
        budget_amount: budget,
        budget_period: budget === null ? null : 'month',
        team_id: team,
      })
      .where('id', '=', record.id)
      .execute();
    out.push(record.id);
  }
  return out;
}
const keyBudgeted = await budgetedCallers('ledger-budget', 1e15, null);
const teamBudgeted = await budgetedCallers('ledger-team', null, teamId);

/** Reserve and settle through a hold (the way requests charge), settlements written behind. */
function holdSettle(ids) {
  return Object.assign(
    async (i) => {
      const hold = await billing.hold(ids[i], 1_000, { kind: 'text', requestId: 'bench' });
      hold.settle(800, { inputTokens: 10, outputTokens: 20 });
    },
    { drain: () => billing.flushSettlements() },
  );
}

const settlements = callers.map(() => []);
const ops = {
  // The hot path: the in-process LRU answers (what a request pays after its key's first use).
  authCached: (i) => keys.authenticate(callers[i].secret),
  // A cache miss every time: hash + one indexed SELECT.
  authUncached: (i) => {
    keys.invalidate(callers[i].id);
    return keys.authenticate(callers[i].secret);
  },
  // One atomic conditional UPDATE per call, each caller on its own key.
  reserve: (i) => billing.reserve(callers[i].id, 1_000),
  // Every caller on the same key: one hot row, the worst case for row locks.
  reserveSharedKey: () => billing.reserve(callers[0].id, 1_000),
  // What a text request costs the ledger: reserve, then settle (row lock + update + usage insert).
  // As in the gateway, a request waits for its reservation but not for its settlement, which is
  // written behind in batches (waiting on each would measure the batching delay, 50 ms, not the
  // ledger); the settlements still pending when time is up are waited for and their time counts.
  reserveSettle: Object.assign(
    async (i) => {
      await billing.reserve(callers[i].id, 1_000);
      const settled = billing.settle(callers[i].id, 1_000, 800, {
        kind: 'text',
        model: 'bench',
        inputTokens: 10,
        outputTokens: 20,
      });
      // Each caller stands for many requests in flight, but not unboundedly many.
      const pending = settlements[i];
      pending.push(settled);
      if (pending.length >= 2048) await pending.shift();
    },
    {
      drain: async () => {
        await Promise.all(settlements.flat());
        for (const pending of settlements) pending.length = 0;
      },
    },
  ),
  // The same through holds: a key without a budget (leases), a budgeted key, a team-budgeted key.
  holdSettle: holdSettle(callers.map((c) => c.id)),
  holdSettleKeyBudget: holdSettle(keyBudgeted),
  holdSettleTeamBudget: holdSettle(teamBudgeted),
};

const results = {};
try {
  for (const [name, op] of Object.entries(ops)) {
    results[name] = {};
    for (const concurrency of job.concurrency) {
      await measure(concurrency, op, job.durationMs / 5); // warm-up, not counted
      results[name][concurrency] = await measure(concurrency, op);
    }
  }
} finally {
  await gateway.close(2_000);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify({ database: job.database, durationMs: job.durationMs, results }));
