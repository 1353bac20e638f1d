#!/usr/bin/env node
// A quick A/B harness for the hot path (PERFORMANCE.md): the provider simulator (latency 0), the
// floor proxy (bench/floor-proxy.mjs) and the gateway each in their own process; this process
// drives them. Per target: sequential p50 (one connection), open-loop p50/p99 at --lowrate and
// --rate req/s (µs timer, plus the gateway's own x-modelgate-overhead-ms), and autocannon
// saturation (32 connections). Build first (pnpm build), or pass --dist <dir of main.js>.
//   node apps/gateway/perf/quick-bench.mjs [--db pg] [--seconds 5] [--targets direct,floor,gateway]
//     [--seq-only] [--requests N] [--stream]
// Needs bench/'s dependencies installed (autocannon). --prof writes a CPU profile to --prof-dir.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(path.join(repo, 'bench/package.json'));
const gatewayRequire = createRequire(path.join(repo, 'apps/gateway/package.json'));
const autocannon = require('autocannon');
const { Pool } = require('undici');

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(repo, 'apps/gateway/dist') },
    db: { type: 'string', default: 'pglite' },
    seconds: { type: 'string', default: '6' },
    targets: { type: 'string', default: 'direct,floor,gateway' },
    rate: { type: 'string', default: '1000' },
    lowrate: { type: 'string', default: '200' },
    prof: { type: 'boolean', default: false },
    // Only the sequential run (p50 and CPU per request): the quickest A/B of per-request cost.
    'seq-only': { type: 'boolean', default: false },
    requests: { type: 'string', default: '2000' },
    // Streamed chats (16 tokens) instead of plain ones: the stream relay's cost per request.
    stream: { type: 'boolean', default: false },
    'prof-dir': { type: 'string', default: path.join(os.tmpdir(), 'modelgate-prof') },
  },
});
const secs = Number(values.seconds);
const procs = [];
// Whatever happens, stop the processes started here.
process.on('exit', () => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
});
function start(name, args, env, re, cwd) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(p);
    let buf = '';
    const on = (d) => {
      buf += d;
      const m = re.exec(buf);
      if (m) {
        resolve({ p, m });
      }
    };
    p.stdout.on('data', on);
    p.stderr.on('data', (d) => {
      buf += d;
      if (process.env.SHOWERR) process.stderr.write(d);
      on('');
    });
    p.on('exit', (c) => reject(new Error(`${name} exited ${c}: ${buf.slice(-2000)}`)));
  });
}
const body = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
  max_tokens: 16,
  ...(values.stream ? { stream: true } : {}),
});
const sim = await start(
  'sim',
  ['servers/sim.mjs', '{"latencyMs":0}'],
  {},
  /listening on (\S+)/,
  path.join(repo, 'bench'),
);
const simUrl = sim.m[1];
const targets = {};
targets.direct = {
  url: `${simUrl}/openai/v1/chat/completions`,
  headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
  pid: sim.p.pid,
};
const floor = await start(
  'floor',
  ['floor-proxy.mjs', '--upstream', `${simUrl}/openai/v1`],
  {},
  /listening on (\S+)/,
  path.join(repo, 'bench'),
);
targets.floor = {
  url: `${floor.m[1]}/chat/completions`,
  headers: targets.direct.headers,
  pid: floor.p.pid,
};
const admin = `sk-${'A'.repeat(48)}`;
let dbUrl;
if (values.db === 'pg') {
  const pg = gatewayRequire('pg');
  const c = new pg.Client('postgres://postgres@127.0.0.1:5432/test');
  await c.connect();
  const name = `mgperf_${Date.now()}`;
  await c.query(`create database ${name}`);
  await c.end();
  dbUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
}
const port = 20000 + Math.floor(Math.random() * 20000);
const gw = await start(
  'gateway',
  [
    ...(values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values['prof-dir']}`] : []),
    // Extra node flags for the gateway only, e.g. GATEWAY_NODE_ARGS="--trace-deopt".
    ...(process.env.GATEWAY_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
    path.resolve(values.dist, 'main.js'),
  ],
  {
    PORT: String(port),
    HOST: '127.0.0.1',
    CDN_PORT: String(port + 1),
    GATEWAY_ADMIN_KEY: admin,
    MODELGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mgperf-')),
    OPENAI_BASE_URL: `${simUrl}/openai/v1`,
    OPENAI_API_KEY: 'sk-up',
    ...(process.env.PGMEM ? { MODELGATE_PGLITE_DIR: 'memory://' } : {}),
    LOG_LEVEL: process.env.LOGLEVEL ?? 'info',
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    NODE_ENV: 'production',
  },
  /"listening"|listening/,
  os.tmpdir(),
);
const origin = `http://127.0.0.1:${port}`;
await new Promise((r) => setTimeout(r, 300));
const tok = await (
  await fetch(`${origin}/v1/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', quota: 1e15 }),
  })
).json();
targets.gateway = {
  url: `${origin}/v1/chat/completions`,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${tok.key}` },
  pid: gw.p.pid,
};
// sanity
const s = await fetch(targets.gateway.url, {
  method: 'POST',
  headers: targets.gateway.headers,
  body,
});
if (s.status !== 200) throw new Error(`gateway ${s.status} ${await s.text()}`);
await s.text();

// CPU time (user + system, all threads) a process has used so far, in µs (/proc; Linux only).
function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / 100;
}
async function sequential(t, n) {
  const u = new URL(t.url);
  const cpu0 = cpuMicros(t.pid);
  const pool = new Pool(u.origin, { connections: 1 });
  const lat = [];
  for (let i = 0; i < n; i++) {
    const st = performance.now();
    const res = await pool.request({ path: u.pathname, method: 'POST', headers: t.headers, body });
    await res.body.text();
    lat.push(performance.now() - st);
  }
  const cpuPerRequest = Math.round((cpuMicros(t.pid) - cpu0) / n);
  await pool.close();
  lat.sort((a, b) => a - b);
  return {
    p50: +lat[n >> 1].toFixed(3),
    p99: +lat[Math.floor(n * 0.99)].toFixed(3),
    cpuUsPerRequest: cpuPerRequest,
  };
}
async function saturate(t, connections) {
  const r = await autocannon({
    url: t.url,
    method: 'POST',
    headers: t.headers,
    body,
    connections,
    duration: secs,
    pipelining: 1,
  });
  return {
    rps: Math.round(r.requests.average),
    non2xx: r.non2xx,
    errors: r.errors,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}
// Fixed-rate open-loop load with µs latencies.
async function fixedRate(t, rate, seconds) {
  const u = new URL(t.url);
  const pool = new Pool(u.origin, { connections: 256, pipelining: 1 });
  const lat = [],
    ovs = [];
  let errs = 0;
  const total = rate * seconds;
  const t0 = performance.now();
  const jobs = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const st = performance.now();
    jobs.push(
      pool.request({ path: u.pathname, method: 'POST', headers: t.headers, body }).then(
        async (res) => {
          await res.body.text();
          if (res.statusCode !== 200) errs++;
          lat.push(performance.now() - st);
          const o = res.headers['x-modelgate-overhead-ms'];
          if (o) ovs.push(Number(o));
        },
        () => errs++,
      ),
    );
  }
  await Promise.all(jobs);
  await pool.close();
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  ovs.sort((a, b) => a - b);
  return {
    ov50: ovs[ovs.length >> 1],
    ov99: ovs[Math.floor(ovs.length * 0.99)],
    achieved: Math.round(lat.length / ((performance.now() - t0) / 1000)),
    errs,
    p50: +q(0.5).toFixed(3),
    p99: +q(0.99).toFixed(3),
  };
}
if (process.env.HOLD) {
  console.log('HOLD', JSON.stringify(targets));
  await new Promise((r) => setTimeout(r, Number(process.env.HOLD) * 1000));
}
const out = {};
for (const name of values.targets.split(',').filter((n) => targets[n])) {
  const t = targets[name];
  await fixedRate(t, 200, 1); // warm
  if (values['seq-only']) {
    out[name] = { seq: await sequential(t, Number(values.requests)) };
    console.log(name, JSON.stringify(out[name]));
    continue;
  }
  out[name] = {
    seq: await sequential(t, Number(values.requests)),
    low: await fixedRate(t, Number(values.lowrate), secs),
    k1: await fixedRate(t, Number(values.rate), secs),
    sat: await saturate(t, 32),
  };
  console.log(name, JSON.stringify(out[name]));
}
if (out.direct && out.gateway && !values['seq-only']) {
  const add = (n, k, p) => +(out[n][k][p] - out.direct[k][p]).toFixed(3);
  console.log(
    'added p50 sequential: floor',
    add('floor', 'seq', 'p50'),
    'gateway',
    add('gateway', 'seq', 'p50'),
  );
  console.log(
    'added p50 @low: floor',
    add('floor', 'low', 'p50'),
    'gateway',
    add('gateway', 'low', 'p50'),
  );
  console.log(
    'added p50 @rate: floor',
    add('floor', 'k1', 'p50'),
    'gateway',
    add('gateway', 'k1', 'p50'),
  );
  console.log(
    'added p99 @rate: floor',
    add('floor', 'k1', 'p99'),
    'gateway',
    add('gateway', 'k1', 'p99'),
  );
}
for (const p of procs.reverse()) p.kill('SIGTERM');
await new Promise((r) => setTimeout(r, 1500));
if (dbUrl) {
  const pg = gatewayRequire('pg');
  const c = new pg.Client('postgres://postgres@127.0.0.1:5432/test');
  await c.connect();
  await c.query(`drop database if exists ${dbUrl.split('/').pop()} with (force)`);
  await c.end();
}
process.exit(0);
