#!/usr/bin/env node
// The floor: the least a Node proxy adds. No auth, no parsing, no logging: a request goes upstream
// and the answer comes back. Every gateway is measured against it. There is more than one way to
// write that in Node, and the cheapest is the honest floor, so each way is here (`--via`):
//   undici-stream    undici's Agent.request, bodies streamed both ways (SSE relayed as it arrives)
//   undici-buffered  the same, but a plain answer is read whole and sent with one write
//   http-stream      node:http's request over a keep-alive http.Agent, bodies piped both ways
//   http-buffered    the same, a plain answer read whole and sent with one write
// A streamed (SSE) answer is always relayed chunk by chunk: buffering it would change what is
// measured. `pnpm bench overhead --targets=floor:undici-stream,floor:http-stream,…` compares them;
// BENCHMARKS.md says which one `floor` is and by how much it beat the others.
//   node bench/floor-proxy.mjs --upstream http://127.0.0.1:9090/openai --port 8081 [--via undici-stream]
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';

const FLOOR_VIAS = ['undici-stream', 'undici-buffered', 'http-stream', 'http-buffered'];

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: process.env.FLOOR_UPSTREAM },
    port: { type: 'string', default: process.env.PORT ?? '0' },
    host: { type: 'string', default: '127.0.0.1' },
    via: { type: 'string', default: 'http-stream' },
  },
});
if (!FLOOR_VIAS.includes(values.via)) {
  throw new Error(`--via takes ${FLOOR_VIAS.join(', ')}`);
}
const upstream = new URL(values.upstream);
const basePath = upstream.pathname.replace(/\/$/, '');
// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not forwarded.
const hop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);
const strip = (headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => !hop.has(k)));
const isStream = (headers) => String(headers['content-type'] ?? '').startsWith('text/event-stream');

/** Sends the answer: piped when streamed (or when buffering is off), else read whole, one write. */
async function answer(res, status, headers, body, buffered) {
  if (!buffered || isStream(headers)) {
    res.writeHead(status, strip(headers));
    await pipeline(body, res);
    return;
  }
  const chunks = [];
  for await (const chunk of body) chunks.push(chunk);
  const whole = Buffer.concat(chunks);
  res.writeHead(status, { ...strip(headers), 'content-length': whole.length });
  res.end(whole);
}

const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 4096 });
async function viaUndici(req, res, buffered) {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const upstreamRes = await dispatcher.request({
    origin: upstream.origin,
    path: basePath + req.url,
    method: req.method,
    headers: strip(req.headers),
    body: hasBody ? req : null,
  });
  await answer(res, upstreamRes.statusCode, upstreamRes.headers, upstreamRes.body, buffered);
}

const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 4096 });
function viaHttp(req, res, buffered) {
  return new Promise((resolve, reject) => {
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: basePath + req.url,
        method: req.method,
        headers: strip(req.headers),
        agent,
      },
      (upstreamRes) => {
        answer(res, upstreamRes.statusCode, upstreamRes.headers, upstreamRes, buffered).then(
          resolve,
          reject,
        );
      },
    );
    out.on('error', reject);
    pipeline(req, out).catch(reject);
  });
}

const [library, mode] = values.via.split('-');
const forward = library === 'undici' ? viaUndici : viaHttp;
const buffered = mode === 'buffered';

const server = http.createServer(async (req, res) => {
  try {
    await forward(req, res, buffered);
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  }
});
server.keepAliveTimeout = 30_000;
server.listen(Number(values.port), values.host, () => {
  const { port } = server.address();
  console.log(
    `floor proxy (${values.via}) listening on http://${values.host}:${port} -> ${upstream.href}`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
