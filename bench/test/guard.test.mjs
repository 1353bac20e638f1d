// The regression guards as tests, in one file so they run one after the other:
// - the client bundle of one streamed chat stays within a quarter of the same app on `openai`
//   (bytes, deterministic: no machine can make it flaky);
// - the quick overhead scenario (direct, floor, modelgate; no Portkey), then the ratio check —
//   modelgate's added p50 within 3× the floor's + 2 ms, measured in the same run, so a slow or busy
//   machine slows both sides and cannot fail it on its own.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuPlan, stopAll } from '../lib/processes.mjs';
import { scratchDir } from '../lib/targets.mjs';
import { bundleSizes } from '../scenarios/client.mjs';
import { overheadGuard, run } from '../scenarios/overhead.mjs';

describe('client bundle guard', () => {
  it('one streamed chat with @modelgate/core + stream ships at most 1/4 of the openai app', {
    timeout: 30_000,
  }, async () => {
    const sizes = await bundleSizes();
    expect(sizes.modelgate.error).toBeUndefined();
    expect(sizes.openai.error).toBeUndefined();
    expect(sizes.modelgate.gzipBytes).toBeGreaterThan(0);
    expect(sizes.modelgate.gzipBytes).toBeLessThanOrEqual(sizes.openai.gzipBytes / 4);
  });
});

describe('bench --quick overhead guard', () => {
  const scratch = scratchDir();
  afterAll(async () => {
    await stopAll();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('modelgate adds no more than 3× the floor proxy’s p50 + 2 ms', {
    timeout: 58_000,
  }, async () => {
    const result = await run({
      quick: true,
      cpus: cpuPlan(false),
      scratch,
      targets: ['direct', 'floor', 'modelgate'],
      log: () => {},
      budgetMs: 30_000,
    });
    expect(result.rounds).toBeGreaterThanOrEqual(20);
    for (const name of ['direct', 'floor', 'modelgate']) {
      expect(result.targets[name].plain.count).toBe(result.rounds);
      expect(result.targets[name].ttft.count).toBe(result.rounds);
    }
    const guard = overheadGuard(result);
    expect(guard.ok, guard.reason).toBe(true);
  });
});
