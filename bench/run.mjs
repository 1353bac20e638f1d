#!/usr/bin/env node
// pnpm bench [--quick] [--no-pin] [--summary] [--node 24] [--targets=floor,modelgate,portkey] [scenario ...]
// Scenarios: overhead load streams client ledger console (default: all). A full run of every scenario (or
// --summary) writes bench/results/latest.json and the SVG plots and rewrites the results section
// of BENCHMARKS.md, which cites them; any other run writes bench/results/partial-nodeN.json.tmp only.
// Results are kept per Node major (latest-node20.json, latest-node24.json, one section of
// BENCHMARKS.md each); --node 24 runs every process of the bench on Node 24 (lib/runtime.mjs).
// --quick is the regression guard: short runs, and exit 1 only on a gross overhead regression.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { postgresAvailable } from './lib/postgres.mjs';
import { cpuPlan, pinSelf, stopAll } from './lib/processes.mjs';
import { continueOnNode, runtimeLabel } from './lib/runtime.mjs';
import { ALL_TARGETS, benchDir, scratchDir } from './lib/targets.mjs';

const SCENARIOS = ['overhead', 'load', 'streams', 'client', 'ledger', 'console'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: 'boolean', default: false },
    'no-pin': { type: 'boolean', default: false },
    summary: { type: 'boolean', default: false },
    targets: { type: 'string' },
    out: { type: 'string', default: path.join(benchDir, 'results') },
    node: { type: 'string' },
  },
});
continueOnNode(values.node);
const selected = positionals.length ? positionals : SCENARIOS;
for (const name of selected) {
  if (!SCENARIOS.includes(name))
    throw new Error(`unknown scenario ${name}; one of ${SCENARIOS.join(', ')}`);
}
// --quick leaves out the PostgreSQL variant of modelgate unless asked for: it is the guard, not a survey.
const defaultTargets = values.quick ? ALL_TARGETS.filter((t) => t !== 'modelgate-pg') : ALL_TARGETS;
const targets = (values.targets ?? defaultTargets.join(',')).split(',').filter(Boolean);
if (!targets.includes('direct')) targets.unshift('direct');
if (targets.includes('modelgate-pg') && !(await postgresAvailable())) {
  targets.splice(targets.indexOf('modelgate-pg'), 1);
  console.log('[bench] PostgreSQL not reachable: modelgate-pg left out');
}

const log = (msg) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const ctx = {
  quick: values.quick,
  cpus: cpuPlan(!values['no-pin']),
  scratch: scratchDir(),
  targets,
  log,
};

// The orchestrator measures the overhead scenario itself: keep it off the server's core.
if (ctx.cpus.pinned) pinSelf(ctx.cpus.other);

const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  loadavg: os.loadavg(),
  node: process.version,
  platform: `${os.type()} ${os.release()}`,
  pinned: ctx.cpus,
};

async function main() {
  const started = Date.now();
  const report = {
    startedAt: new Date(started).toISOString(),
    quick: ctx.quick,
    machine,
    upstream:
      process.env.BENCH_UPSTREAM === 'stub' ? 'stub (harness development only)' : 'provider-sim',
    scenarios: {},
  };
  log(`scenarios: ${selected.join(', ')}; targets: ${targets.join(', ')}; quick: ${ctx.quick}`);
  log(
    `cpu plan: ${JSON.stringify(ctx.cpus)}; load average ${machine.loadavg.map((n) => n.toFixed(2)).join(' ')}`,
  );
  let failed = false;
  for (const name of selected) {
    const t0 = Date.now();
    log(`▶ ${name}`);
    try {
      const scenario = await import(`./scenarios/${name}.mjs`);
      report.scenarios[name] = await scenario.run(ctx);
      log(`✔ ${name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      failed = true;
      report.scenarios[name] = { error: String(error?.stack ?? error) };
      log(`✖ ${name}: ${error?.stack ?? error}`);
    }
    await stopAll();
  }
  report.durationS = (Date.now() - started) / 1000;
  report.machine.loadavgAfter = os.loadavg();

  const { evaluate } = await import('./lib/report.mjs');
  const verdict = evaluate(report);
  report.targets = verdict.targets;
  report.guard = verdict.guard;

  mkdirSync(values.out, { recursive: true });
  // latest.json and the plots are the results BENCHMARKS.md cites: only a run that rewrites that
  // section may replace them. Quick and partial runs are not results to keep (*.tmp is ignored).
  const published = !ctx.quick && (selected.length === SCENARIOS.length || values.summary);
  const kind = published ? 'latest' : ctx.quick ? 'quick' : 'partial';
  const name = `${kind}-${runtimeLabel()}.json${published ? '' : '.tmp'}`;
  const file = path.join(values.out, name);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`results: ${path.relative(process.cwd(), file)}`);
  if (published) {
    const { writePlots, writeSummary } = await import('./lib/report.mjs');
    const plots = writePlots(report, values.out);
    for (const plot of plots) log(`plot: ${path.relative(process.cwd(), plot)}`);
    writeSummary(report, values.out);
    log('BENCHMARKS.md results section rewritten');
  }
  for (const line of verdict.lines) console.log(line);

  if (ctx.quick) {
    if (!report.guard?.ok) {
      console.error(`✖ regression guard: ${report.guard?.reason ?? 'overhead not measured'}`);
      return 1;
    }
    console.log(`✔ regression guard: ${report.guard.reason}`);
    return 0;
  }
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} finally {
  await stopAll();
  // Logs and PGlite data dirs of this run: kept only when something failed.
  if (code === 0) rmSync(ctx.scratch, { recursive: true, force: true });
  else console.log(`[bench] logs kept in ${ctx.scratch}`);
}
process.exit(code);
