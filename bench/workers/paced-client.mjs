#!/usr/bin/env node
// The fixed-rate load generator, in its own process: an open loop that sends request i at
// start + i / rate whatever the answers do, over a pool of keep-alive connections. Unlike
// autocannon's `overallRate` (each connection spends its per-second share back to back, then
// waits: a burst of `connections` concurrent requests every second), the arrivals are evenly
// spaced, so the latency at a rate is the latency at that rate, not at the burst's concurrency.
// A request's latency runs from the moment it is handed to the pool: when the target falls
// behind, requests wait in the pool's queue and that wait counts (no coordinated omission), while
// the generator's own timer lateness (Node timers tick in whole milliseconds) does not; it is
// reported apart as `sendLateness`.
//   node bench/workers/paced-client.mjs '{"url":"…","headers":{…},"body":"…","rate":1000,"durationS":10,"warmupS":2}'
import { Pool } from 'undici';
import { summarize } from '../lib/stats.mjs';

const job = JSON.parse(process.argv[2]);
const url = new URL(job.url);
// Connections enough for 100 ms per request: a target that falls behind for a moment must be
// able to catch up. With rate / 50 (20 ms each), one stall on a fresh gateway at 2,000 req/s
// raised latency past 20 ms, after which the pool itself capped the rate at the offered one and
// the queue never drained (p50 1.3 s). Connections open only as concurrency needs them.
const connections = job.connections ?? Math.max(16, Math.ceil(job.rate / 10));
const pool = new Pool(url.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
const intervalMs = 1000 / job.rate;
const total = Math.round(job.rate * (job.warmupS + job.durationS));
const warmupCount = Math.round(job.rate * job.warmupS);
const measured = total - warmupCount;
const latencies = new Float64Array(measured);
let lastAnswerAt = 0;
let ok = 0;
let non2xx = 0;
let errors = 0;
let timeouts = 0;
const timeoutMs = (job.timeoutS ?? 10) * 1000;
const statuses = {};
const late = new Float64Array(measured);
// modelgate's own time per request (x-modelgate-overhead-ms: in the gateway, upstream wait
// excluded), so its tail can be told apart from the machine's scheduling tail.
const ownTimes = new Float64Array(measured);
let ownCount = 0;

function send(index, dueAt) {
  const measure = index >= warmupCount;
  const sentAt = performance.now();
  if (measure) late[index - warmupCount] = sentAt - dueAt;
  return pool
    .request({
      path: url.pathname + url.search,
      method: job.method ?? 'POST',
      headers: job.headers,
      body: job.body,
      // Also while queued in the pool: against a target far below the offered rate the backlog
      // would otherwise outlast any time limit (Portkey at 2,000 req/s: ≈ 600 answered a second).
      signal: AbortSignal.timeout(timeoutMs),
    })
    .then(async (response) => {
      await response.body.dump();
      if (!measure) return;
      if (response.statusCode >= 200 && response.statusCode < 300) {
        lastAnswerAt = performance.now();
        latencies[ok++] = lastAnswerAt - sentAt;
        const own = response.headers['x-modelgate-overhead-ms'];
        if (typeof own === 'string') ownTimes[ownCount++] = Number(own);
      } else {
        non2xx++;
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      }
    })
    .catch((error) => {
      if (!measure) return;
      if (error?.name === 'TimeoutError') timeouts++;
      else errors++;
    });
}

const inFlight = new Set();
const start = performance.now() + 20;
let next = 0;
await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
    // Everything that is due goes now; a timer that fires late sends a small catch-up batch.
    while (next < total && start + next * intervalMs <= now) {
      const dueAt = start + next * intervalMs;
      const pending = send(next, dueAt);
      inFlight.add(pending);
      pending.finally(() => inFlight.delete(pending));
      next++;
    }
    if (next >= total) return resolve();
    setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
  };
  setTimeout(tick, 20);
});
const measuredFrom = start + warmupCount * intervalMs;
const sentUntil = start + total * intervalMs;
await Promise.all(inFlight);
await pool.close();
// Up to the last answer: a target that cannot keep up answers the same count over a longer time
// (its queue drains after the sending stops), and its achieved rate is below the offered one.
const windowS = (Math.max(sentUntil, lastAnswerAt) - measuredFrom) / 1000;
console.log(
  JSON.stringify({
    rate: job.rate,
    connections,
    durationS: windowS,
    ok,
    non2xx,
    statuses,
    throughput: ok / windowS,
    errors,
    timeouts,
    latency: summarize(latencies.subarray(0, ok)),
    // How late the generator itself sent: timer granularity, and its own event loop, which gets
    // busier when a target falls behind.
    sendLateness: summarize(late),
    ...(ownCount ? { ownTime: summarize(ownTimes.subarray(0, ownCount)) } : {}),
  }),
);
