#!/usr/bin/env node
// `pnpm test:chaos [--short|--full]`: the chaos run of the gateway (apps/gateway/chaos/README.md).
// Short (the default, and CI's) stays under ~4 minutes on two cores; CHAOS_SIZE=full or --full
// runs the long version. Needs PostgreSQL and Redis on 127.0.0.1 (DATABASE_URL / REDIS_URL).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const size = process.argv.includes('--full')
  ? 'full'
  : process.argv.includes('--short')
    ? 'short'
    : (process.env.CHAOS_SIZE ?? 'short');
const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = `${root}node_modules/.bin/vitest`;
const result = spawnSync(vitest, ['run', '--config', 'chaos/vitest.config.ts'], {
  cwd: `${root}apps/gateway`,
  stdio: 'inherit',
  env: { ...process.env, CHAOS_SIZE: size },
});
process.exit(result.status ?? 1);
