#!/usr/bin/env node
// The provider simulator in its own process: node bench/servers/sim.mjs '{"latencyMs":10}'
// Prints "sim listening on <url>" when ready. BENCH_UPSTREAM=stub uses the bench's own stub
// (only for developing the harness before the simulator exists; results say so).
const options = JSON.parse(process.argv[2] ?? '{}');
const { startSimulator } =
  process.env.BENCH_UPSTREAM === 'stub'
    ? await import('../lib/stub-sim.mjs')
    : await import('@modelgate/provider-sim');
const sim = await startSimulator({ host: '127.0.0.1', port: 0, ...options });
console.log(`sim listening on ${sim.url}`);
process.on('SIGTERM', async () => {
  await sim.close();
  process.exit(0);
});
