// The second runtime of the test command (scripts/test-all.mjs) and of `bench --node`: the pinned
// Node from npm really is that Node, and a command run through it finds it first on PATH.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RUNTIMES, runtimeBinDir, runtimeEnv } from './node-runtime.mjs';

describe('node-runtime', () => {
  it('pins Node 20 and 24, the two lines the test command runs on', () => {
    expect(RUNTIMES[20]).toMatch(/^20\.\d+\.\d+$/);
    expect(RUNTIMES[24]).toMatch(/^24\.\d+\.\d+$/);
  });

  it('a command run with the runtime env gets that Node from PATH', { timeout: 120_000 }, () => {
    const env = runtimeEnv(24);
    expect(env.PATH.split(':')[0]).toBe(runtimeBinDir(24));
    const version = execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim();
    expect(version).toBe(`v${RUNTIMES[24]}`);
  });

  it('refuses a line it does not pin', () => {
    expect(() => runtimeBinDir(18)).toThrow(/no pinned Node 18/);
  });
});
