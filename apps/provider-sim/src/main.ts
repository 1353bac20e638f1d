#!/usr/bin/env node
// CLI: `pnpm sim` (or `node dist/main.js`). Configured by SIM_* environment variables.
import { startSimulator } from './server.js';

function envNumber(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} must be a non-negative number, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const processingMs = envNumber('SIM_VIDEO_PROCESSING_MS');
const sim = await startSimulator({
  port: envNumber('SIM_PORT', 9090),
  host: process.env.SIM_HOST || '127.0.0.1',
  ttftMs: envNumber('SIM_TTFT_MS'),
  tokensPerSecond: envNumber('SIM_TOKENS_PER_SECOND'),
  latencyMs: envNumber('SIM_LATENCY_MS'),
  ...(process.env.SIM_REQUIRE_KEY ? { requireKey: process.env.SIM_REQUIRE_KEY } : {}),
  ...(processingMs !== undefined ? { video: { processingMs } } : {}),
});
console.log(`provider-sim listening on ${sim.url}`);

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
