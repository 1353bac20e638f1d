import { defineConfig } from 'vitest/config';

// One file at a time: the guards measure latency ratios, and nothing may run beside them.
export default defineConfig({ test: { fileParallelism: false } });
