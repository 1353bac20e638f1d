/**
 * The gateway runs with node flags (src/main.ts's first line: a smaller young generation, WASM
 * on the baseline compiler). Every
 * way of starting it must pass the same ones, and node must accept them: a flag node refuses stops
 * the gateway before it logs a line.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');
const shebang = read('../../src/main.ts').split('\n', 1)[0] as string;
const flags = /^#!\/usr\/bin\/env -S node (.+)$/.exec(shebang)?.[1] ?? '';

describe('start flags', () => {
  it('the bin names its node flags on its first line', () => {
    expect(flags).toContain('--max-semi-space-size=');
    expect(flags).toContain('--liftoff-only');
  });

  it('the installed bin starts node with the same flags', () => {
    expect(read('../../bin/modelgate-gateway.js').split('\n', 1)[0]).toBe(shebang);
  });

  it('the package scripts start node with the same flags', () => {
    const gateway = JSON.parse(read('../../package.json')) as { scripts: Record<string, string> };
    const root = JSON.parse(read('../../../../package.json')) as {
      scripts: Record<string, string>;
    };
    expect(gateway.scripts.start).toBe(`node ${flags} dist/main.js`);
    expect(root.scripts.start).toContain(`&& node ${flags} apps/gateway/dist/main.js`);
  });

  it('node accepts them', () => {
    const out = execFileSync(process.execPath, [...flags.split(' '), '-e', 'console.log("ok")']);
    expect(out.toString().trim()).toBe('ok');
  });
});
