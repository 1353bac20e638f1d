// Scenario 1 — overhead, one request at a time: what each hop adds to a plain chat (total time)
// and to a streamed chat (time to first token), against the simulator's fixed latency.

import { poolFor, shuffled, timeRequest, warmUp } from '../lib/measure.mjs';
import { stop } from '../lib/processes.mjs';
import { summarize } from '../lib/stats.mjs';
import { chatBody, startSim, startTarget, stopTarget } from '../lib/targets.mjs';

export const SIM_OVERHEAD = { latencyMs: 5, ttftMs: 5, tokensPerSecond: 0, outputTokens: 16 };

/**
 * @param {{ quick: boolean, cpus: object, scratch: string, targets: string[], log: Function }} ctx
 * @returns per target: plain and ttft summaries (ms) and `added` p50/p99 vs direct.
 */
export async function run(ctx) {
  const rounds = ctx.quick ? 120 : 800;
  const warmup = ctx.quick ? 20 : 100;
  // Requests per target before the rounds, so each is measured with its request path optimised.
  const jitWarmup = ctx.quick ? 400 : 4000;
  const sim = await startSim(SIM_OVERHEAD, { cpu: ctx.cpus.other });
  const started = [];
  try {
    const targets = [];
    for (const name of ctx.targets) {
      const target = await startTarget(name, sim.url, {
        cpu: ctx.cpus.server,
        scratch: ctx.scratch,
      });
      started.push(target);
      targets.push({ ...target, pool: poolFor(target.url), plain: [], ttft: [], reported: [] });
    }
    const plainBody = chatBody({ stream: false });
    const streamBody = chatBody({ stream: true });
    for (const target of targets) {
      await warmUp(target, [plainBody, streamBody], { count: jitWarmup });
    }
    // Bounded in time as well as count: a very slow machine measures fewer rounds, never hangs.
    const deadline = Date.now() + (ctx.budgetMs ?? (ctx.quick ? 40_000 : 180_000));
    let done = 0;
    for (let round = 0; round < warmup + rounds && Date.now() < deadline; round++) {
      for (const target of shuffled(targets)) {
        const plain = await timeRequest(target.pool, target, plainBody);
        const streamed = await timeRequest(target.pool, target, streamBody, { stream: true });
        if (round >= warmup) {
          target.plain.push(plain.totalMs);
          if (plain.reportedMs != null) target.reported.push(plain.reportedMs);
          target.ttft.push(streamed.ttftMs);
        }
      }
      if (round >= warmup) done++;
    }
    ctx.log(`overhead: ${done} rounds per target`);
    const result = { rounds: done, sim: SIM_OVERHEAD, targets: {} };
    for (const target of targets) {
      await target.pool.close();
      result.targets[target.name] = {
        plain: summarize(target.plain),
        ttft: summarize(target.ttft),
        // x-modelgate-overhead-ms, the gateway's own account of its time (modelgate only).
        ...(target.reported.length ? { selfReported: summarize(target.reported) } : {}),
      };
    }
    const direct = result.targets.direct;
    for (const stats of Object.values(result.targets)) {
      stats.added = {
        plainP50: stats.plain.p50 - direct.plain.p50,
        plainP99: stats.plain.p99 - direct.plain.p99,
        ttftP50: stats.ttft.p50 - direct.ttft.p50,
        ttftP99: stats.ttft.p99 - direct.ttft.p99,
      };
    }
    return result;
  } finally {
    for (const target of started) await stopTarget(target);
    await stop(sim);
  }
}

/**
 * The regression guard: fails only on a gross regression, as a ratio to the floor measured in the
 * same run, plus an absolute slack so noise on a busy machine cannot fail a build.
 */
export function overheadGuard(result, { factor = 3, slackMs = 2 } = {}) {
  const floor = result.targets.floor?.added.plainP50;
  const modelgate = result.targets.modelgate?.added.plainP50;
  if (floor == null || modelgate == null)
    return { ok: false, reason: 'floor or modelgate missing' };
  const limit = factor * Math.max(0, floor) + slackMs;
  return {
    ok: modelgate <= limit,
    modelgateAddedP50: modelgate,
    floorAddedP50: floor,
    limit,
    reason: `modelgate added p50 ${modelgate.toFixed(3)} ms vs limit ${limit.toFixed(3)} ms (${factor}× floor ${floor.toFixed(3)} ms + ${slackMs} ms)`,
  };
}
