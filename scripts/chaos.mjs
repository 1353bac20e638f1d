#!/usr/bin/env node
// `pnpm test:chaos [--short|--full]`: the chaos run of the gateway (apps/gateway/chaos/README.md).
// Short (the default, and CI's) stays under ~4 minutes on two cores; CHAOS_SIZE=full or --full
// runs the long version. It needs PostgreSQL and Redis: DATABASE_URL / REDIS_URL, or the defaults
// on 127.0.0.1. With both variables set (as .ci/run sets them) an unreachable server fails the run;
// without them, a machine that has neither server skips the run with a warning, so `pnpm test`
// still works on a fresh machine.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const size = process.argv.includes('--full')
  ? 'full'
  : process.argv.includes('--short')
    ? 'short'
    : (process.env.CHAOS_SIZE ?? 'short');

const postgres = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** Whether something accepts TCP connections at `url`'s host and port (within a second). */
function reachable(url, defaultPort) {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port || defaultPort), url.hostname);
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const missing = [
  !(await reachable(postgres, 5432)) && `PostgreSQL at ${postgres.host}`,
  !(await reachable(redis, 6379)) && `Redis at ${redis.host}`,
].filter(Boolean);
if (missing.length > 0) {
  const required = process.env.DATABASE_URL && process.env.REDIS_URL;
  console.error(`chaos run: ${missing.join(' and ')} not reachable`);
  if (required) process.exit(1);
  console.error('chaos run SKIPPED (set DATABASE_URL and REDIS_URL to require it)');
  process.exit(0);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = `${root}node_modules/.bin/vitest`;
const result = spawnSync(vitest, ['run', '--config', 'chaos/vitest.config.ts'], {
  cwd: `${root}apps/gateway`,
  stdio: 'inherit',
  env: { ...process.env, CHAOS_SIZE: size },
});
process.exit(result.status ?? 1);
