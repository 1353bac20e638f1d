// One request at a time, timed from the client: total time for a plain chat, time to the first
// SSE event for a streamed one. One keep-alive connection per target so no connect is timed.
import { Pool } from 'undici';

export function poolFor(url) {
  return new Pool(new URL(url).origin, { connections: 1, pipelining: 1, keepAliveTimeout: 60_000 });
}

const hrMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Sends one chat request and returns `{ status, totalMs, ttftMs }` (ttftMs: first body bytes that
 * contain `data:`; null for a non-streamed request). Fails on a non-2xx status.
 */
export async function timeRequest(pool, target, body, { stream = false, timeoutMs = 10_000 } = {}) {
  const url = new URL(target.url);
  const started = hrMs();
  const res = await pool.request({
    path: url.pathname + url.search,
    method: 'POST',
    headers: target.headers,
    body,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  let ttftMs = null;
  let text = '';
  for await (const chunk of res.body) {
    if (stream && ttftMs === null && chunk.includes('data:')) ttftMs = hrMs() - started;
    if (res.statusCode >= 300 && text.length < 2_000) text += chunk;
  }
  const totalMs = hrMs() - started;
  if (res.statusCode >= 300) {
    throw new Error(`${target.name}: HTTP ${res.statusCode} ${text.slice(0, 500)}`);
  }
  // modelgate reports its own share of the time (docs/design.md#text-generation): a cross-check of the client's view.
  const reported = Number.parseFloat(res.headers['x-modelgate-overhead-ms']);
  return {
    status: res.statusCode,
    totalMs,
    ttftMs,
    reportedMs: Number.isFinite(reported) ? reported : null,
  };
}

/** Fisher–Yates shuffle of a copy: each round visits the targets in a new order. */
export function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Warms a target's JIT before it is measured: `count` requests (plain and streamed alternating)
 * over `connections` parallel connections. V8 keeps optimising a server's request path for
 * thousands of requests (a gateway's p50 falls about threefold over its first 4,000, the floor's
 * too), so a short warm-up measures each target part way up its own curve.
 */
export async function warmUp(target, bodies, { count, connections = 8 }) {
  const pool = new Pool(new URL(target.url).origin, { connections, pipelining: 1 });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await timeRequest(pool, target, bodies[i % bodies.length], { stream: i % 2 === 1 });
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.close();
  }
}
