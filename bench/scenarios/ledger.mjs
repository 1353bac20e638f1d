// Scenario 5 — ledger: key authentication and quota reservations per second, with 1 and 50
// concurrent callers, on PGlite and on PostgreSQL (a fresh database, dropped after), by driving the
// gateway's own services; plus authentication over HTTP on its cheapest authenticated route.
import path from 'node:path';
import { createFreshDatabase } from '../lib/postgres.mjs';
import { runWorker } from '../lib/processes.mjs';
import { benchDir, startTarget, stopTarget } from '../lib/targets.mjs';

const CONCURRENCY = [1, 50];

async function withFreshPostgres(fn) {
  const database = await createFreshDatabase();
  try {
    return await fn(database.url);
  } finally {
    await database.drop();
  }
}

function ledgerWorker(ctx, database, databaseUrl) {
  const durationMs = ctx.quick ? 300 : 2_000;
  const job = { database, databaseUrl, durationMs, concurrency: CONCURRENCY };
  return runWorker({
    name: `ledger ${database}`,
    args: [path.join(benchDir, 'workers/ledger.mjs'), JSON.stringify(job)],
    cpu: ctx.cpus.server,
    timeoutMs: 120_000 + durationMs * 30,
  });
}

async function httpAuth(ctx) {
  const gateway = await startTarget('modelgate', 'http://127.0.0.1:9', {
    cpu: ctx.cpus.server,
    scratch: ctx.scratch,
  });
  try {
    const out = {};
    for (const connections of CONCURRENCY) {
      const job = {
        url: `${gateway.origin}/v1/dashboard/billing/credit_grants`,
        method: 'GET',
        headers: { authorization: gateway.headers.authorization },
        connections,
        durationS: ctx.quick ? 1 : 5,
        warmupS: ctx.quick ? 0.5 : 1,
      };
      out[connections] = await runWorker({
        name: `credit_grants x${connections}`,
        args: [path.join(benchDir, 'workers/load-client.mjs'), JSON.stringify(job)],
        cpu: ctx.cpus.other,
        timeoutMs: 60_000,
      });
    }
    return out;
  } finally {
    await stopTarget(gateway);
  }
}

export async function run(ctx) {
  const result = { concurrency: CONCURRENCY };
  result.pglite = await ledgerWorker(ctx, 'pglite');
  try {
    result.postgres = await withFreshPostgres((url) => ledgerWorker(ctx, 'postgres', url));
  } catch (error) {
    result.postgres = { error: String(error.message ?? error) };
  }
  for (const database of ['pglite', 'postgres']) {
    const r = result[database].results;
    if (!r) continue;
    const line = Object.entries(r)
      .map(([op, byC]) => `${op} ${CONCURRENCY.map((c) => Math.round(byC[c].opsPerS)).join('/')}`)
      .join(', ');
    ctx.log(`ledger ${database} (ops/s at ${CONCURRENCY.join('/')} callers): ${line}`);
  }
  result.httpAuth = await httpAuth(ctx);
  ctx.log(
    `ledger http credit_grants: ${CONCURRENCY.map((c) => `${Math.round(result.httpAuth[c].throughput)} req/s @${c}`).join(', ')}`,
  );
  return result;
}
