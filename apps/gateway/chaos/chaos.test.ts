// The chaos run ("nothing lost"): three gateway processes on one PostgreSQL, one Redis and one
// S3-compatible store, under a steady mixed load while upstreams misbehave, one instance is SIGKILLed
// twice, PostgreSQL "restarts" and Redis "stops". Then the truth is read back: every request got a
// documented answer, every video task ended and its callback arrived once, the ledger balances, no
// key went past its quota and rpm held across instances. See README.md in this folder.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator } from '../../provider-sim/src/index.js';
import { generateApiKey } from '../src/keys/key-format.js';
import { buildGatewayMain } from '../test/support/child-gateway.js';
import { startS3Server, type TestS3Server } from '../test/support/s3-server.js';
import { simulatorProviderEnv } from '../test/support/video-gateway.js';
import { type CallbackReceiver, startCallbackReceiver } from './callback-receiver.js';
import {
  budgetsPastAmount,
  keysPastQuota,
  type LedgerResult,
  ledgerCheck,
  query,
  type TaskRow,
  taskFigures,
  unchargedAnswers,
  waitTasksFinal,
} from './checks.js';
import {
  type Cluster,
  createPostgresTarget,
  type PostgresTarget,
  startCluster,
} from './cluster.js';
import { injectFaults } from './faults.js';
import { printReport } from './report.js';
import { type RunLoad, runLoad } from './run-load.js';
import { chaosSize } from './sizes.js';
import { type ChaosProxy, startChaosProxy } from './tcp-proxy.js';

const size = chaosSize();
const INSTANCES = 3;
const RPM = 60;
const QUOTA_UNITS = 1_500;
/** The budgets (units per day): a key's own, and its team's shared by two more keys. */
const KEY_BUDGET_UNITS = 2_000;
const TEAM_BUDGET_UNITS = 3_000;
const PUBLIC_CDN = 'http://cdn.chaos.modelgate.test';

let built: Awaited<ReturnType<typeof buildGatewayMain>>;
let sim: Awaited<ReturnType<typeof startSimulator>>;
let s3: TestS3Server;
let receiver: CallbackReceiver;
let database: PostgresTarget;
let pgProxy: ChaosProxy;
let redisProxy: ChaosProxy;
let cluster: Cluster | undefined;

const baseDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** The gateways' YAML: both text providers are the simulator, with short upstream timeouts. */
function configYaml(simUrl: string): string {
  const timeouts = '{ connect_ms: 2000, first_byte_ms: 3000, idle_ms: 3000 }';
  return `providers:
  openai: { kind: openai, base_url: "${simUrl}/openai/v1", api_key_env: OPENAI_API_KEY, timeouts: ${timeouts} }
  anthropic: { kind: anthropic, base_url: "${simUrl}/anthropic", api_key_env: ANTHROPIC_API_KEY, timeouts: ${timeouts} }
models:
  - id: gpt-4o-mini
    deployments: [{ provider: openai, model: gpt-4o-mini }]
    price: { input_per_million: 1, output_per_million: 2 }
  - id: claude-haiku-4-5
    deployments: [{ provider: anthropic, model: claude-haiku-4-5 }]
    price: { input_per_million: 1, output_per_million: 2 }
  - id: chaos-fast
    deployments: [{ provider: openai, model: gpt-4o-mini }, { provider: anthropic, model: claude-haiku-4-5 }]
    price: { input_per_million: 1, output_per_million: 2 }
`;
}

beforeAll(async () => {
  built = await buildGatewayMain();
  sim = await startSimulator({ tokensPerSecond: 400, video: { processingMs: 1_000 } });
  s3 = await startS3Server();
  receiver = await startCallbackReceiver(0.3);
  database = await createPostgresTarget(baseDatabaseUrl);
  const base = new URL(baseDatabaseUrl);
  pgProxy = await startChaosProxy({ host: base.hostname, port: Number(base.port || 5432) });
  redisProxy = await startChaosProxy({
    host: redisUrl.hostname,
    port: Number(redisUrl.port || 6379),
  });
  const viaProxy = new URL(database.directUrl);
  viaProxy.host = `127.0.0.1:${pgProxy.port}`;
  cluster = await startCluster({
    main: built.main,
    size: INSTANCES,
    configYaml: configYaml(sim.url),
    env: {
      ...simulatorProviderEnv(sim.url),
      OPENAI_API_KEY: 'sim-key',
      ANTHROPIC_API_KEY: 'sim-key',
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      MODELGATE_REDIS_PREFIX: `mg-chaos-${database.name}`,
      // Generous on a shared 2-core machine, so only the cut proxy (not a slow answer) means "down".
      MODELGATE_REDIS_TIMEOUT_MS: '1000',
      MODELGATE_S3_URL: s3.url,
      CDN_URL: PUBLIC_CDN,
      MODELGATE_CALLBACK_ALLOW_PRIVATE: '1',
      MODELGATE_CALLBACK_RETRY_SCHEDULE: '300ms,1s,2s,3s,5s,5s,5s',
      MODELGATE_CALLBACK_POLL_INTERVAL: '200ms',
      MODELGATE_CALLBACK_TIMEOUT: '3s',
      MODELGATE_VIDEO_POLL_INTERVAL_MS: '250',
      MODELGATE_VIDEO_LEASE_MS: '5000',
      MODELGATE_VIDEO_DEADLINE_MS: String(size.videoDeadlineMs),
      MODELGATE_DRAIN_TIMEOUT_MS: '10000',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  });
}, 180_000);

afterAll(async () => {
  await cluster?.cleanup();
  await pgProxy?.close();
  await redisProxy?.close();
  await database?.drop();
  await receiver?.close();
  await s3?.close();
  await sim?.close();
  await built?.cleanup();
}, 60_000);

const ADMIN_KEY = generateApiKey();

async function adminPost(path: string, body: Record<string, unknown>): Promise<unknown> {
  const instance = cluster!.instances[0]!;
  const res = await fetch(`${instance.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function createKey(body: Record<string, unknown>): Promise<string> {
  return ((await adminPost('/v1/token', body)) as { key: string }).key;
}

/** A key with a budget of its own, and two keys of a team with a budget. */
async function createBudgetKeys(): Promise<string[]> {
  const day = (amount: number) => ({ amount, period: 'day' });
  const team = (await adminPost('/v1/teams', {
    name: 'chaos team',
    budget: day(TEAM_BUDGET_UNITS),
  })) as { id: number };
  return [
    await createKey({
      name: 'chaos budget key',
      quota: 1_000_000_000_000,
      budget: day(KEY_BUDGET_UNITS),
    }),
    ...(await Promise.all(
      [1, 2].map((i) =>
        createKey({ name: `chaos team ${i}`, quota: 1_000_000_000_000, team_id: team.id }),
      ),
    )),
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The disruptions, in order, spread over the load; returns their log. */
async function disrupt(load: RunLoad): Promise<string[]> {
  const log: string[] = [];
  const at = (share: number) => load.startedAt + size.loadMs * share;
  const until = async (share: number) => sleep(Math.max(0, at(share) - Date.now()));
  const note = (what: string) =>
    log.push(`${((Date.now() - load.startedAt) / 1000).toFixed(1)} s: ${what}`);

  await until(0.12);
  note('SIGKILL instance 0');
  await cluster!.killAndRestart(0);
  note('instance 0 restarted on its data directory');

  await until(0.3);
  // The gateways' connections drop at once, under running queries, as in a server crash or a
  // failover; the server's sessions of the database are terminated (what a restart does to them),
  // and connections are refused for a while.
  await pgProxy.cut();
  const terminated = await database.terminateBackends();
  note(`PostgreSQL restart: connections cut, ${terminated} backends left to terminate, refused`);
  await sleep(size.postgresDownMs);
  await pgProxy.restore();
  note('PostgreSQL back');

  await until(0.5);
  load.marks.redisDownAt = Date.now();
  note('Redis stopped');
  await redisProxy.cut();
  await sleep(size.redisDownMs);
  await redisProxy.restore();
  load.marks.redisUpAt = Date.now();
  note('Redis back');

  await until(0.75);
  note('SIGKILL instance 0');
  await cluster!.killAndRestart(0);
  note('instance 0 restarted on its data directory');
  return log;
}

async function createKeys() {
  return {
    load: await createKey({ name: 'chaos load', quota: 1_000_000_000_000 }),
    rpm: await createKey({ name: 'chaos rpm', quota: 1_000_000_000_000, rpm: RPM }),
    quota: await Promise.all(
      [1, 2, 3].map((i) => createKey({ name: `chaos quota ${i}`, quota: QUOTA_UNITS })),
    ),
    budget: await createBudgetKeys(),
  };
}

/** Waits until every task is final (or past its deadline) and its callback has arrived. */
async function finishTasks(): Promise<TaskRow[]> {
  const tasks = await waitTasksFinal(
    database.directUrl,
    Date.now() + size.videoDeadlineMs + 30_000,
  );
  const expected = tasks.filter((t) => t.callback_url).length;
  const until = Date.now() + 60_000;
  while (new Set(receiver.processed.map((p) => p.taskId)).size < expected && Date.now() < until) {
    await sleep(250);
  }
  return tasks;
}

/** What the receiver processed, per task with a callback URL. */
function callbackFigures(tasks: TaskRow[]) {
  const withCallback = tasks.filter((t) => t.callback_url);
  const perTask = new Map<string, number>();
  for (const p of receiver.processed) perTask.set(p.taskId, (perTask.get(p.taskId) ?? 0) + 1);
  return {
    tasksWithCallback: withCallback.length,
    deliveredOnce: withCallback.filter((t) => perTask.get(t.id) === 1).length,
    missing: withCallback.filter((t) => !perTask.has(t.id)).map((t) => t.id),
    deliveredTwice: [...perTask].filter(([, n]) => n > 1).map(([id]) => id),
    attempts: receiver.attempts,
    failedOnPurpose: receiver.failedOnPurpose,
    duplicatesDeduped: receiver.duplicates,
  };
}

/** The books once every instance has stopped: ledger check, quotas, served answers' charges. */
async function readBooks(load: RunLoad) {
  const ledgers: LedgerResult[] = [];
  for (const dir of cluster!.dataDirs) {
    ledgers.push(await ledgerCheck(built.main, database.directUrl, dir));
  }
  const served = load.exchanges.filter(
    (e) => e.op.startsWith('chat') && e.outcome === 'ok' && e.requestId,
  );
  const uncharged = await unchargedAnswers(
    database.directUrl,
    served.map((e) => e.requestId ?? ''),
  );
  const quotaKeysUsed = await query<{ used: string }>(
    database.directUrl,
    `select used from api_keys where name like 'chaos quota %'`,
  );
  return {
    ledgerOutput: ledgers.map((l) => l.output).join('\n'),
    ledger: {
      difference: ledgers.reduce((n, l) => n + l.difference, 0),
      orphaned: ledgers.reduce((n, l) => n + l.orphaned, 0),
      budgetDifference: ledgers.reduce((n, l) => n + l.budgetDifference, 0),
      exitCodes: ledgers.map((l) => l.code),
    },
    budgets: {
      pastAmount: (await budgetsPastAmount(database.directUrl)).length,
      spent: (
        await query<{ spent: string }>(
          database.directUrl,
          `select budget_spent as spent from api_keys where name = 'chaos budget key'
           union all select budget_spent from teams where name = 'chaos team'`,
        )
      ).map((r) => Number(r.spent)),
    },
    charges: {
      servedChats: served.length,
      unchargedChats: uncharged.chats,
      unchargedCompletedVideos: uncharged.videos,
    },
    quota: {
      keysPastQuota: (await keysPastQuota(database.directUrl)).length,
      quotaKeysUsed: quotaKeysUsed.map((r) => Number(r.used)),
      quotaUnits: QUOTA_UNITS,
    },
  };
}

it(`loses nothing under fire (${size.name})`, { timeout: size.loadMs + 300_000 }, async () => {
  const keys = await createKeys();
  const faults = injectFaults(sim.faults, size.faultEveryMs);
  const load = runLoad({ cluster: cluster!, size, keys, callbackUrl: receiver.url });
  const disruptions = await disrupt(load);
  const disruptedUntil = Date.now();
  await load.done;
  faults.stop();

  const tasks = await finishTasks();
  const taskStats = taskFigures(tasks, Date.now());
  const exitCodes = await cluster!.stopAll();
  const { ledgerOutput, ...books } = await readBooks(load);
  const report = printReport({
    size,
    load,
    disruptions,
    faults: faults.injected,
    tasks: taskStats,
    callbacks: callbackFigures(tasks),
    ...books,
    rpm: load.rpmFigures(RPM, INSTANCES),
    shutdownExitCodes: exitCodes,
    gatewayErrorLogs: cluster!.errorLogs(),
  });

  expect(report.requests.unexplained, cluster!.output()).toEqual([]);
  expect(exitCodes).toEqual(exitCodes.map(() => 0));
  // The CLI logs (and survives) what would crash a process embedding the gateway.
  expect(report.gatewayErrorLogs['uncaught exception']).toBeUndefined();
  expect(report.gatewayErrorLogs['unhandled rejection']).toBeUndefined();
  expect(taskStats.stuckPastDeadline).toEqual([]);
  expect(taskStats.open).toBe(0);
  expect(report.callbacks.missing).toEqual([]);
  expect(report.callbacks.deliveredTwice).toEqual([]);
  expect(ledgerOutput).toContain('difference 0');
  expect(report.ledger).toEqual({
    difference: 0,
    orphaned: 0,
    budgetDifference: 0,
    exitCodes: cluster!.dataDirs.map(() => 0),
  });
  expect(ledgerOutput).toContain('budgets balance: 2 budgets, difference 0');
  expect(report.budgets.pastAmount).toBe(0);
  expect(report.quota.keysPastQuota).toBe(0);
  expect(report.charges.unchargedChats).toEqual([]);
  expect(report.charges.unchargedCompletedVideos).toEqual([]);
  expect(report.rpm.steady.accepted).toBeLessThanOrEqual(report.rpm.steady.bound);
  expect(report.rpm.whole.accepted).toBeLessThanOrEqual(report.rpm.whole.bound);
  // The run must have exercised what it claims to: every disruption happened under load.
  expect(Math.max(...load.exchanges.map((e) => e.endedAt))).toBeGreaterThan(disruptedUntil);
  expect(report.requests.total).toBeGreaterThan(200);
  expect(taskStats.total).toBeGreaterThan(5);
  expect(report.requests.byStatus['402'] ?? 0).toBeGreaterThan(0);
  expect(report.requests.byStatus['429'] ?? 0).toBeGreaterThan(0);
});
