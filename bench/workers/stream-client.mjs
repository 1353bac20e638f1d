#!/usr/bin/env node
// Holds many streamed chats open at once (its own process), ramping them up so no listen backlog
// overflows, and records when each content chunk arrives. A few control streams go straight to
// the simulator at the same time, interleaved with the others: the per-chunk delay is measured
// against them, so load from outside the bench slows both sides alike. Tells the parent over IPC
// once every stream has its first chunk, so it can read the server's RSS while all are held open.
//   node bench/workers/stream-client.mjs '{"url":"…","headers":{…},"body":"…","streams":1000,
//     "rampMs":1000,"control":{"url":"…","headers":{…},"streams":50}}'
import { Agent } from 'undici';
import { summarize } from '../lib/stats.mjs';

const job = JSON.parse(process.argv[2]);
const dispatcher = new Agent({
  connections: null,
  keepAliveTimeout: 1_000,
  headersTimeout: 60_000,
  bodyTimeout: 60_000,
});
const hrMs = () => Number(process.hrtime.bigint()) / 1e6;
const contentChunk = /"content":"[^"]/;

let firstChunks = 0;
let announced = false;
// Streams that have their first chunk and have not ended: the ones really held open right now.
let openNow = 0;
let maxOpen = 0;
const control = job.control ?? { streams: 0 };
const total = job.streams + control.streams;
const groups = {
  main: { target: job, offsetsByIndex: [], ttfts: [], durations: [], errors: [] },
  control: { target: control, offsetsByIndex: [], ttfts: [], durations: [], errors: [] },
};

async function oneStream(group) {
  const { target, offsetsByIndex, ttfts, durations, errors } = group;
  const url = new URL(target.url);
  const started = hrMs();
  let seenFirst = false;
  try {
    const res = await dispatcher.request({
      origin: url.origin,
      path: url.pathname,
      method: 'POST',
      headers: target.headers,
      body: job.body,
    });
    if (res.statusCode !== 200) {
      errors.push(`HTTP ${res.statusCode}: ${(await res.body.text()).slice(0, 200)}`);
      return;
    }
    let buffer = '';
    let index = 0;
    for await (const chunk of res.body) {
      const now = hrMs() - started;
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (contentChunk.test(event)) {
          if (index === 0) ttfts.push(now);
          if (!offsetsByIndex[index]) offsetsByIndex[index] = [];
          offsetsByIndex[index].push(now);
          index++;
          if (!seenFirst) {
            seenFirst = true;
            firstChunks++;
            if (group === groups.main) openNow++;
            if (openNow > maxOpen) maxOpen = openNow;
            if (!announced && firstChunks === total) {
              announced = true;
              process.send?.({ allOpen: true, atMs: hrMs() - t0 });
            }
          }
        }
        end = buffer.indexOf('\n\n');
      }
    }
    durations.push(hrMs() - started);
  } catch (error) {
    errors.push(String(error.code ?? error.message));
  } finally {
    if (seenFirst && group === groups.main) openNow--;
  }
}

const t0 = hrMs();
const progress = setInterval(() => process.send?.({ open: openNow }), 100);
const pending = [];
// Control streams are spread evenly through the ramp, so both groups meet the same conditions.
const order = [];
for (let i = 0; i < total; i++) order.push(groups.main);
for (let c = 0; c < control.streams; c++) {
  order[Math.floor(((c + 0.5) * total) / control.streams)] = groups.control;
}
const steps = 20;
const batch = Math.max(1, Math.ceil(total / steps));
for (let opened = 0; opened < total; opened += batch) {
  for (let i = opened; i < Math.min(total, opened + batch); i++) pending.push(oneStream(order[i]));
  await new Promise((resolve) => setTimeout(resolve, job.rampMs / steps));
}
await Promise.all(pending);
clearInterval(progress);
await dispatcher.close();

// The k-th content chunk's arrival time (ms after its request), median over streams, for every k.
const report = (group) => ({
  opened: group === groups.main ? job.streams : control.streams,
  completed: group.durations.length,
  errors: group.errors.length,
  errorSamples: [...new Set(group.errors)].slice(0, 5),
  ttft: summarize(group.ttfts),
  duration: summarize(group.durations),
  medianByIndex: group.offsetsByIndex.map((offsets) => summarize(offsets).p50),
});
console.log(
  JSON.stringify({
    allOpen: announced,
    maxOpen,
    main: report(groups.main),
    control: report(groups.control),
  }),
);
