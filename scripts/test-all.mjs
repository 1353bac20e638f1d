#!/usr/bin/env node
// The one test command (README.md, .ci/run): every check the project has, in dependency order.
// Each step fails the run; the steps are plain commands so any of them can be run alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
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
    [
      'exec',
      'turbo',
      'run',
      'build',
      'typecheck',
      'lint',
      'test',
      '--output-logs=new-only',
      '--continue',
      '--filter=!@modelgate/bench',
    ],
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

const started = Date.now();
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}
console.log(
  `\n✔ all ${steps.length} steps passed in ${Math.round((Date.now() - started) / 1000)} s`,
);
