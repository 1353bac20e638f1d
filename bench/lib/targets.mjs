// The things measured, each started in its own process against one simulator:
//   direct    the simulator itself (the baseline every "added" figure subtracts)
//   floor     bench/floor-proxy.mjs, a bare pass-through (floor:<via> for each way of writing it)
//   modelgate apps/gateway/dist/main.js, with keys, quota, routing and metering on (PGlite)
//   modelgate-pg the same on PostgreSQL (a fresh database, dropped when the target stops)
//   portkey   @portkey-ai/gateway's own bin, told the simulator is an OpenAI-compatible custom host
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFreshDatabase } from './postgres.mjs';
import { freePort, startNode, stop } from './processes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const benchDir = path.resolve(here, '..');
export const repoDir = path.resolve(benchDir, '..');
const require = createRequire(import.meta.url);

export const MODEL = 'gpt-4o-mini';
const UPSTREAM_KEY = 'sk-bench-upstream';
export const ALL_TARGETS = ['direct', 'floor', 'modelgate', 'modelgate-pg', 'portkey'];
/**
 * How `floor` proxies (bench/floor-proxy.mjs `--via`): the cheapest of the candidates there. On a
 * quiet machine (Nov 28, Node 24, two interleaved runs of 800 rounds) `node:http` with bodies piped
 * added 1.324 and 1.387 ms at p50, undici streamed 1.555 and 1.460 (BENCHMARKS.md, "Which floor
 * is honest"). `floor:<via>` starts any candidate by name.
 */
export const FLOOR_VIA = 'http-stream';

/** A scratch directory for this run's logs and the gateway's PGlite data. */
export function scratchDir() {
  return mkdtempSync(path.join(os.tmpdir(), 'modelgate-bench-'));
}

/** Starts a provider simulator with the given options; returns its process handle (url = base). */
export function startSim(options, { cpu = null, name = 'sim' } = {}) {
  return startNode({
    name,
    args: [path.join(benchDir, 'servers/sim.mjs'), JSON.stringify(options)],
    cpu,
    readyPattern: /sim listening on (http:\/\/\S+)/,
  });
}

function base62(length) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) if (bytes[i] < 248) out += alphabet[bytes[i] % 62];
  return out;
}

// BENCH_GATEWAY_MAIN: another build of the gateway to measure (e.g. a copy of dist/ from main).
const gatewayMain =
  process.env.BENCH_GATEWAY_MAIN ?? path.join(repoDir, 'apps/gateway/dist/main.js');
/**
 * The node flags the gateway's bin runs with (its `#!/usr/bin/env -S node …` line), so the bench
 * starts the gateway exactly as `pnpm start` and the bin do.
 */
function gatewayNodeFlags(main) {
  const firstLine = readFileSync(main, 'utf8').split('\n', 1)[0];
  const flags = /^#!.*\bnode\b(.*)$/.exec(firstLine)?.[1] ?? '';
  return flags.split(' ').filter(Boolean);
}

const portkeyMain = path.join(
  path.dirname(require.resolve('@portkey-ai/gateway/package.json')),
  'build/start-server.js',
);

/**
 * Starts one target in front of `simUrl` and returns `{ name, url, headers, pid, handle }` where
 * `url` is its chat completions URL and `headers` what a client must send. `direct` starts nothing.
 * For modelgate, `main` is the build to start (default: apps/gateway/dist/main.js, or
 * BENCH_GATEWAY_MAIN) and `label` names its log file when two builds run side by side.
 */
export async function startTarget(
  name,
  simUrl,
  { cpu = null, scratch, nodeArgs = [], env = {}, main = gatewayMain, label = name },
) {
  const json = { 'content-type': 'application/json' };
  if (name === 'direct') {
    return {
      name,
      url: `${simUrl}/openai/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${UPSTREAM_KEY}` },
      pid: null,
      handle: null,
    };
  }
  if (name === 'floor' || name.startsWith('floor:')) {
    const via = name === 'floor' ? FLOOR_VIA : name.slice('floor:'.length);
    const handle = await startNode({
      name,
      args: [
        ...nodeArgs,
        path.join(benchDir, 'floor-proxy.mjs'),
        '--upstream',
        `${simUrl}/openai`,
        '--via',
        via,
      ],
      cpu,
      readyPattern: /listening on (http:\/\/\S+)/,
    });
    return {
      name,
      url: `${handle.url}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${UPSTREAM_KEY}` },
      pid: handle.pid,
      handle,
    };
  }
  if (name === 'portkey') {
    const port = await freePort();
    const handle = await startNode({
      name,
      args: [
        ...nodeArgs,
        '--import',
        path.join(benchDir, 'servers/loopback-only.mjs'),
        portkeyMain,
        `--port=${port}`,
        '--headless',
      ],
      env: { NODE_ENV: 'production' },
      cpu,
      readyUrl: `http://127.0.0.1:${port}/`,
      logFile: path.join(scratch, 'portkey.log'),
    });
    return {
      name,
      url: `http://127.0.0.1:${port}/v1/chat/completions`,
      headers: {
        ...json,
        authorization: `Bearer ${UPSTREAM_KEY}`,
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': `${simUrl}/openai/v1`,
      },
      pid: handle.pid,
      handle,
    };
  }
  if (name === 'modelgate' || name === 'modelgate-pg') {
    if (!existsSync(main)) {
      throw new Error(`${main} is missing: build the gateway first (pnpm build)`);
    }
    const database = name === 'modelgate-pg' ? await createFreshDatabase() : null;
    const [port, cdnPort] = [await freePort(), await freePort()];
    const adminKey = `sk-${base62(48)}`;
    const origin = `http://127.0.0.1:${port}`;
    // BENCH_GATEWAY_NODE_ARGS: extra node flags for modelgate (e.g. V8 heap tuning experiments).
    const extraArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const handle = await startNode({
      name,
      args: [...gatewayNodeFlags(main), ...extraArgs, ...nodeArgs, main],
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        CDN_PORT: String(cdnPort),
        GATEWAY_ADMIN_KEY: adminKey,
        MODELGATE_DATA_DIR: mkdtempSync(path.join(scratch, 'pglite-')),
        OPENAI_BASE_URL: `${simUrl}/openai/v1`,
        OPENAI_API_KEY: UPSTREAM_KEY,
        DATABASE_URL: database?.url,
        REDIS_URL: undefined,
        MODELGATE_CONFIG: undefined,
      },
      cpu,
      readyUrl: `${origin}/readyz`,
      logFile: path.join(scratch, `${label}.log`),
    }).catch(async (error) => {
      await database?.drop();
      throw error;
    });
    const target = {
      name,
      url: `${origin}/v1/chat/completions`,
      headers: json,
      pid: handle.pid,
      handle,
      origin,
      adminKey,
      databaseUrl: database?.url,
      cleanup: database?.drop,
    };
    try {
      target.headers = {
        ...json,
        authorization: `Bearer ${await createUserKey(origin, adminKey)}`,
      };
    } catch (error) {
      await stopTarget(target);
      throw error;
    }
    return target;
  }
  throw new Error(`unknown target ${name}`);
}

/** Throws when a target's process has died (crashed, or was killed from outside the bench). */
export function assertAlive(target) {
  if (target?.handle?.exited) {
    throw new Error(
      `${target.name} exited during the run (${target.handle.exitCode}); see its log`,
    );
  }
}

/** Stops a target's process, then removes what it left (its PostgreSQL database). */
export async function stopTarget(target) {
  if (!target) return;
  await stop(target.handle);
  await target.cleanup?.();
}

/** A user key with a quota no bench run can spend (1e9 credits). */
export async function createUserKey(origin, adminKey) {
  const res = await fetch(`${origin}/v1/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', quota: 1e15 }),
  });
  const body = await res.json();
  if (!res.ok || typeof body.key !== 'string') {
    throw new Error(`POST /v1/token failed: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.key;
}

/** The request every scenario sends: one short chat, streamed or not. */
export function chatBody({ stream = false, maxTokens = 16 } = {}) {
  return JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
    max_tokens: maxTokens,
    ...(stream ? { stream: true } : {}),
  });
}
