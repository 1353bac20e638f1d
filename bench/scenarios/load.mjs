// Scenario 2 — load: evenly spaced arrivals at fixed request rates (workers/paced-client.mjs),
// then flat out with autocannon (64 connections), each generator in its own process, against each
// target in turn; added latency is each percentile minus the same percentile sent direct.
import path from 'node:path';
import { shuffled } from '../lib/measure.mjs';
import { rssOf, runWorker, sampleRss, stop } from '../lib/processes.mjs';
import {
  assertAlive,
  benchDir,
  chatBody,
  startSim,
  startTarget,
  stopTarget,
} from '../lib/targets.mjs';

export const SIM_LOAD = { latencyMs: 5, ttftMs: 5, tokensPerSecond: 0, outputTokens: 16 };

export async function run(ctx) {
  const rates = ctx.quick ? [500] : [200, 500, 1000, 2000];
  const durationS = ctx.quick ? 2 : 10;
  // A fresh Node server stalls now and then for its first seconds (tier-up compilation, heap
  // growth): after 2 s of warm-up one such stall still set the p99 (floor 227–443 ms at 1,000
  // req/s, against 28–31 ms after 5 s).
  const warmupS = ctx.quick ? 0.5 : 5;
  const saturationConnections = 64;
  const sim = await startSim(SIM_LOAD, { cpu: ctx.cpus.other });
  try {
    const body = chatBody({ stream: false });
    const runs = {};
    // Every run gets a fresh target process: one run's end (autocannon drops its in-flight
    // requests) must not change the next run's starting state (see BENCHMARKS.md, finding 0).
    const once = async (name, rate) => {
      const target = await startTarget(name, sim.url, {
        cpu: ctx.cpus.server,
        scratch: ctx.scratch,
      });
      try {
        const rssBefore = target.pid ? rssOf(target.pid) : null;
        const rss = target.pid ? sampleRss(target.pid) : null;
        // A fixed rate is an open loop with evenly spaced arrivals; saturation is a closed loop
        // (each connection sends its next request when the last is answered).
        const job = {
          url: target.url,
          headers: target.headers,
          body,
          durationS,
          warmupS,
          ...(rate ? { rate } : { connections: saturationConnections }),
        };
        const worker = rate ? 'workers/paced-client.mjs' : 'workers/load-client.mjs';
        const out = await runWorker({
          name: `load ${name} @${rate ?? 'max'}`,
          args: [path.join(benchDir, worker), JSON.stringify(job)],
          cpu: ctx.cpus.other,
          timeoutMs: (durationS + warmupS + 30) * 1000,
        });
        if (rss) out.rss = { ...rss.stop(), before: rssBefore };
        assertAlive(target);
        const statuses = Object.entries(out.statuses)
          .map(([status, count]) => `${count}×${status}`)
          .join(' ');
        ctx.log(
          `load ${name} @${rate ?? 'max'}: ${out.throughput.toFixed(0)} req/s, p50 ${out.latency.p50?.toFixed(2)} ms, p99 ${out.latency.p99?.toFixed(2)} ms, errors ${out.errors + out.timeouts}${statuses ? `, non-2xx ${statuses}` : ''}`,
        );
        return out;
      } finally {
        await stopTarget(target);
      }
    };
    // Quick mode (the guard) skips saturation: it needs seconds, not a survey.
    for (const rate of ctx.quick ? rates : [...rates, null]) {
      // Each rate visits the targets in a new order, so a burst of outside load is spread out.
      for (const name of shuffled(ctx.targets)) {
        runs[name] ??= { rates: {}, saturation: null };
        const out = await once(name, rate);
        if (rate) runs[name].rates[rate] = out;
        else runs[name].saturation = out;
      }
    }
    const direct = runs.direct;
    for (const stats of Object.values(runs)) {
      for (const [rate, out] of Object.entries(stats.rates)) {
        const base = direct.rates[rate].latency;
        out.added = {
          p50: out.latency.p50 - base.p50,
          p99: out.latency.p99 - base.p99,
          p999: out.latency.p999 - base.p999,
        };
      }
    }
    return { rates, durationS, warmupS, sim: SIM_LOAD, saturationConnections, targets: runs };
  } finally {
    await stop(sim);
  }
}
