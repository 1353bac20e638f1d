#!/usr/bin/env node
// The saturation load generator, always in its own process: autocannon against one URL flat out
// (or at an overall rate, which autocannon spends as a burst at the start of every second — the
// fixed rates use workers/paced-client.mjs instead), recording every response's own latency
// (autocannon's histogram keeps whole milliseconds; sub-millisecond overheads need the float it
// reports per response).
//   node bench/workers/load-client.mjs '{"url":"…","headers":{…},"body":"…","connections":8,"rate":500,"durationS":10}'
import autocannon from 'autocannon';
import { summarize } from '../lib/stats.mjs';

const job = JSON.parse(process.argv[2]);
const warmupMs = job.warmupS * 1000;
const maxSamples = 2_000_000;
const latencies = new Float64Array(maxSamples);
let count = 0;
let ok = 0;
let non2xx = 0;
let measuredFrom = 0;
const statuses = {};

const instance = autocannon({
  url: job.url,
  method: job.method ?? 'POST',
  headers: job.headers,
  ...(job.body ? { body: job.body } : {}),
  connections: job.connections,
  ...(job.rate ? { overallRate: job.rate } : {}),
  duration: job.warmupS + job.durationS,
  timeout: 10,
  excludeErrorStats: true,
});
const started = performance.now();
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  const now = performance.now();
  if (now - started < warmupMs) return;
  if (!measuredFrom) measuredFrom = now;
  if (statusCode >= 200 && statusCode < 300) {
    ok++;
    if (count < maxSamples) latencies[count++] = responseTime;
  } else {
    non2xx++;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  }
});
const result = await instance;
const windowS = measuredFrom ? (performance.now() - measuredFrom) / 1000 : job.durationS;
console.log(
  JSON.stringify({
    rate: job.rate ?? null,
    connections: job.connections,
    durationS: windowS,
    ok,
    non2xx,
    statuses,
    throughput: ok / windowS,
    errors: result.errors,
    timeouts: result.timeouts,
    latency: summarize(latencies.subarray(0, count)),
  }),
);
