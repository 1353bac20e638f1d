#!/usr/bin/env node
// The one test command (README.md, .ci/run): every check the project has, in dependency order, on
// two Node.js runtimes one after the other.
//
//   pass 1, the Node that runs this script (the machine's: 20 here): everything below.
//   pass 2, the other supported line (Node 24 LTS from npm via scripts/node-runtime.mjs; Node 20
//           when pass 1 already ran on 24): the unit and end-to-end tests of the gateway and the
//           packages again, so code that only breaks on one runtime fails the run.
//
// Pass 2 leaves out what does not depend on the runtime or would only take time twice: lint, the
// spec, typecheck, builds (turbo replays them from pass 1), the chaos run and the benchmark guard
// (each once, on pass 1), compat/, whose tests pin Node 24 themselves and so run once, in pass 1,
// and the browser tests (apps/web's, and the gateway's /docs and console): what they add to the
// gateway's own tests is what a page does in Chromium, which the Node serving it does not change.
// Both passes run even when the first fails, so the output always shows both runtimes. Each step
// is a plain command, printed before it runs, so any of them can be run alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { runtimeEnv } from './node-runtime.mjs';

/** turbo hashes no runtime on its own: the test task's hash includes this (turbo.json), so a test
 * that passed on Node 20 is not replayed from the cache as passed on Node 24. */
const RUNTIME_VAR = 'MODELGATE_TEST_NODE';

const turboTests = (tasks, extraFilters = []) => [
  'exec',
  'turbo',
  'run',
  ...tasks,
  '--output-logs=new-only',
  '--continue',
  '--filter=!@modelgate/bench',
  ...extraFilters,
];

const everything = [
  ['lint (biome)', 'pnpm', ['exec', 'biome', 'check', '.']],
  // Every Markdown file and relative link the repository names must be in it (scripts/repo-references.mjs).
  ['references stay inside the repository', 'pnpm', ['exec', 'vitest', 'run', '--dir', 'scripts']],
  existsSync('spec/openapi.yaml') && [
    'spec lint (redocly)',
    'pnpm',
    ['run', '--silent', 'spec:lint'],
  ],
  [
    'build, typecheck, package lint, tests',
    'pnpm',
    turboTests(['build', 'typecheck', 'lint', 'test']),
  ],
  // Three gateway processes on the machine's PostgreSQL and Redis, killed and cut off under load
  // (apps/gateway/chaos): after the unit suites, so a plain bug fails fast before the long run.
  ['chaos run (short)', 'node', ['scripts/chaos.mjs', '--short']],
  // The benchmark regression guard measures latency ratios, so it runs alone after everything else
  // rather than beside the test suites competing for the same two cores.
  ['benchmark regression guard', 'pnpm', ['--filter', '@modelgate/bench', 'test']],
  existsSync('packages/core/openapi-ts.config.ts') && [
    'generated client is up to date',
    'pnpm',
    ['--filter', '@modelgate/core', 'run', 'generate:check'],
  ],
].filter(Boolean);

const testsAgain = [
  [
    'unit and end-to-end tests of the gateway and the packages, without a browser',
    'pnpm',
    turboTests(['test'], ['--filter=!@modelgate/compat', '--filter=!@modelgate/web']),
  ],
];

/** Pass 2 leaves the browser tests out (apps/gateway/test/support/browser.ts says why). */
const secondPassEnv = { MODELGATE_TEST_BROWSERS: 'skip' };

const machineMajor = Number(process.versions.node.split('.')[0]);
const passes = [
  { name: 'the Node that runs this script', env: process.env, steps: everything },
  {
    name: `pinned Node ${machineMajor === 24 ? 20 : 24} from npm (scripts/node-runtime.mjs)`,
    env: { ...runtimeEnv(machineMajor === 24 ? 20 : 24), ...secondPassEnv },
    steps: testsAgain,
  },
];

/** `node --version` as the pass's PATH resolves it: what every child process of the pass runs on. */
function nodeVersion(env) {
  const out = spawnSync('node', ['--version'], { env, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`node --version failed: ${out.stderr}`);
  return out.stdout.trim();
}

function runPass({ name, env, steps }, index) {
  const version = nodeVersion(env);
  const passEnv = { ...env, [RUNTIME_VAR]: version };
  const label = `pass ${index + 1}/${passes.length} on Node ${version}`;
  console.log(`\n━━━ ${label} (${name}): ${steps.map(([step]) => step).join('; ')}`);
  const started = Date.now();
  let passed = 0;
  let failure = null;
  for (const [step, cmd, args] of steps) {
    console.log(`\n▶ [Node ${version}] ${step}: ${cmd} ${args.join(' ')}`);
    const stepStarted = Date.now();
    const result = spawnSync(cmd, args, { stdio: 'inherit', env: passEnv });
    const stepSeconds = Math.round((Date.now() - stepStarted) / 1000);
    if (result.status !== 0) {
      failure = `${step} failed (exit ${result.status ?? result.signal}, ${stepSeconds} s)`;
      console.error(`\n✖ [Node ${version}] ${failure}`);
      break;
    }
    console.log(`\n✔ [Node ${version}] ${step}: ${stepSeconds} s`);
    passed++;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const summary = failure
    ? `✖ ${label}: ${failure} after ${passed} of ${steps.length} steps, ${seconds} s`
    : `✔ ${label}: all ${steps.length} steps passed in ${seconds} s`;
  console.log(`\n━━━ ${summary}`);
  return { ok: !failure, summary };
}

const results = passes.map(runPass);
console.log('\nsummary:');
for (const { summary } of results) console.log(`  ${summary}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
