// Scenario 3 — streams: many streamed chats held open through each target at once, from a slow
// simulator. Reports the target's RSS per held stream, and how much later each chunk arrives than
// on control streams sent straight to the simulator at the same time (median over chunks).
import path from 'node:path';
import { poolFor, timeRequest } from '../lib/measure.mjs';
import { cpuTimeOf, rssOf, runWorker, stop } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';
import {
  assertAlive,
  benchDir,
  chatBody,
  startSim,
  startTarget,
  stopTarget,
} from '../lib/targets.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The burst's delay moves a lot between runs of one build (one core saturated on every target, see
 * BENCHMARKS.md, Method), so each target is measured `repeats` times, alternating with the others,
 * and the run with the median first-chunk delay is reported; RSS is the highest peak of all runs.
 */
export async function run(ctx) {
  const streams = ctx.quick ? 100 : 1000;
  const controlStreams = ctx.quick ? 10 : 50;
  const tokens = ctx.quick ? 6 : 50;
  const repeats = ctx.quick ? 1 : 3;
  const simOptions = { ttftMs: 200, tokensPerSecond: 5, latencyMs: 0, outputTokens: tokens };
  const sim = await startSim(simOptions, { cpu: ctx.cpus.other, name: 'sim-slow' });
  const runs = {};
  try {
    const direct = await startTarget('direct', sim.url, { scratch: ctx.scratch });
    for (let repeat = 0; repeat < repeats; repeat++) {
      for (const name of ctx.targets.filter((target) => target !== 'direct')) {
        const result = await measureOnce(ctx, name, sim, direct, {
          streams,
          controlStreams,
          tokens,
        });
        runs[name] = [...(runs[name] ?? []), result];
      }
    }
    const targets = Object.fromEntries(
      Object.entries(runs).map(([name, list]) => [name, medianRun(list)]),
    );
    return { streams, controlStreams, repeats, sim: simOptions, targets };
  } finally {
    await stop(sim);
  }
}

/** The run with the median first-chunk delay, the highest RSS peak of all, and every run's figures. */
function medianRun(list) {
  const byDelay = [...list].sort(
    (a, b) => (a.addedFirstChunkMs ?? Infinity) - (b.addedFirstChunkMs ?? Infinity),
  );
  const chosen = byDelay[Math.floor((byDelay.length - 1) / 2)];
  const heldMax = Math.max(...list.map((r) => r.rss.held ?? 0)) || null;
  return {
    ...chosen,
    rss: { ...chosen.rss, heldMax },
    runs: list.map((r) => ({
      addedFirstChunkMs: r.addedFirstChunkMs,
      cpuPerStreamMs: r.cpuPerStreamMs,
      cpuToAllOpenPerStreamMs: r.cpuToAllOpenPerStreamMs,
      rssHeld: r.rss.held,
    })),
  };
}

async function measureOnce(ctx, name, sim, direct, { streams, controlStreams, tokens }) {
  const target = await startTarget(name, sim.url, {
    cpu: ctx.cpus.server,
    scratch: ctx.scratch,
  });
  try {
    // Warm the request path with one-token streams, so JIT and pools do not count per stream.
    const pool = poolFor(target.url);
    for (let i = 0; i < (ctx.quick ? 5 : 20); i++) {
      await timeRequest(pool, target, chatBody({ stream: true, maxTokens: 1 }), {
        stream: true,
      });
    }
    await pool.close();
    await sleep(500);
    const rssIdle = rssOf(target.pid);
    // RSS is read with every progress report of the stream holder; the peak is taken, along
    // with how many streams were really open then (a gateway that queues upstream requests
    // never holds them all at once).
    let peak = { rss: null, open: 0 };
    // The target's CPU time, per stream: until every stream has its first chunk (opening them,
    // while the first ones already relay), and over the whole run (relaying and ending too).
    // Opening 1,000 streams in 1 s asks more than a core's second of every target, so the
    // first chunk's delay is the backlog this builds (docs: BENCHMARKS.md, Method).
    const cpuBefore = cpuTimeOf(target.pid);
    let cpuAllOpen = null;
    const job = {
      url: target.url,
      headers: target.headers,
      body: chatBody({ stream: true, maxTokens: tokens }),
      streams,
      rampMs: ctx.quick ? 500 : 1000,
      control: { url: direct.url, headers: direct.headers, streams: controlStreams },
    };
    const out = await runWorker({
      name: `streams ${name}`,
      args: [path.join(benchDir, 'workers/stream-client.mjs'), JSON.stringify(job)],
      cpu: ctx.cpus.other,
      timeoutMs: 120_000,
      onMessage: (message) => {
        if (message?.allOpen) cpuAllOpen = cpuTimeOf(target.pid);
        if (typeof message?.open !== 'number') return;
        const rss = rssOf(target.pid);
        if (rss != null && (peak.rss == null || rss > peak.rss)) peak = { rss, open: message.open };
      },
    });
    assertAlive(target);
    const cpuAfter = cpuTimeOf(target.pid);
    const rssHeld = peak.rss;
    const deltas = out.main.medianByIndex
      .slice(0, out.control.medianByIndex.length)
      .map((value, k) => value - out.control.medianByIndex[k])
      .filter((value) => Number.isFinite(value));
    const r = {
      allOpen: out.allOpen,
      // Most streams open at once (all of them only if the target never queued any).
      maxOpen: out.maxOpen,
      openAtPeakRss: peak.open,
      main: { ...out.main, medianByIndex: undefined },
      control: { ...out.control, medianByIndex: undefined },
      rss: {
        idle: rssIdle,
        held: rssHeld,
        perStreamBytes: rssHeld != null && rssIdle != null ? (rssHeld - rssIdle) / streams : null,
      },
      cpuPerStreamMs:
        cpuBefore != null && cpuAfter != null ? (cpuAfter - cpuBefore) / streams : null,
      cpuToAllOpenPerStreamMs:
        cpuBefore != null && cpuAllOpen != null ? (cpuAllOpen - cpuBefore) / streams : null,
      // The k-th chunk through the target minus the k-th chunk direct, median over k.
      addedPerChunkMs: deltas.length ? median(deltas) : null,
      addedFirstChunkMs: deltas.length ? deltas[0] : null,
      // The same with the first chunk's delay taken out: how far later chunks fall further
      // behind (≈ 0 when the target relays each chunk as it comes; grows if chunks queue).
      driftPerChunkMs: deltas.length > 1 ? median(deltas.slice(1).map((d) => d - deltas[0])) : null,
    };
    ctx.log(
      `streams ${name}: ${out.main.completed}/${streams} completed, at most ${out.maxOpen} open at once, errors ${out.main.errors}, ` +
        `RSS +${((r.rss.perStreamBytes ?? Number.NaN) / 1024).toFixed(1)} KiB/stream, ` +
        `CPU ${r.cpuPerStreamMs?.toFixed(2)} ms/stream (${r.cpuToAllOpenPerStreamMs?.toFixed(2)} until all open), ` +
        `chunk +${r.addedPerChunkMs?.toFixed(2)} ms (first +${r.addedFirstChunkMs?.toFixed(2)} ms)`,
    );
    return r;
  } finally {
    await stopTarget(target);
  }
}
