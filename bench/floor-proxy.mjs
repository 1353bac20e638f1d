#!/usr/bin/env node
// The floor: the least any Node proxy adds. No auth, no parsing, no logging; bodies are streamed
// both ways, so SSE chunks are relayed as they arrive. Every gateway is measured against this.
//   node bench/floor-proxy.mjs --upstream http://127.0.0.1:9090/openai --port 8081
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: process.env.FLOOR_UPSTREAM },
    port: { type: 'string', default: process.env.PORT ?? '0' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
const upstream = new URL(values.upstream);
const basePath = upstream.pathname.replace(/\/$/, '');
const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 4096 });
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

const server = http.createServer(async (req, res) => {
  try {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const upstreamRes = await dispatcher.request({
      origin: upstream.origin,
      path: basePath + req.url,
      method: req.method,
      headers: strip(req.headers),
      body: hasBody ? req : null,
    });
    res.writeHead(upstreamRes.statusCode, strip(upstreamRes.headers));
    await pipeline(upstreamRes.body, res);
  } catch {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  }
});
server.keepAliveTimeout = 30_000;
server.listen(Number(values.port), values.host, () => {
  const { port } = server.address();
  console.log(`floor proxy listening on http://${values.host}:${port} -> ${upstream.href}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
