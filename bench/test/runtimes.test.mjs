// The bench's runtime plumbing without running a benchmark: which runtime a report belongs to, the
// side-by-side table BENCHMARKS.md opens with, and how profile samples are grouped into modules.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleOf, summarizeProfile } from '../lib/cpu-profile.mjs';
import { runtimeComparison, runtimeOf } from '../lib/report.mjs';
import { continueOnNode, nodeMajor, runtimeLabel } from '../lib/runtime.mjs';
import { benchDir } from '../lib/targets.mjs';

describe('results per runtime', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-runtimes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a report belongs to the Node major it ran on', () => {
    expect(runtimeOf({ machine: { node: 'v24.21.0' } })).toBe('node24');
    expect(runtimeOf({ machine: { node: 'v20.20.2' } })).toBe('node20');
    expect(runtimeLabel(26)).toBe('node26');
    expect(runtimeLabel()).toBe(`node${nodeMajor()}`);
  });

  it('without any full run, both columns are pending with the command that fills them', () => {
    const text = runtimeComparison(dir);
    expect(text).toContain('Node 24: pending — `pnpm bench --node 24`');
    expect(text).toContain('Node 20: pending — `pnpm bench --node 20`');
    expect(text).not.toContain('|');
  });

  it('with the Node 20 run only, Node 24 leads as pending and Node 20 has its figures', () => {
    const node20 = path.join(benchDir, 'results/latest-node20.json');
    copyFileSync(node20, path.join(dir, 'latest-node20.json'));
    const report = JSON.parse(readFileSync(node20, 'utf8'));
    const date = report.startedAt.slice(0, 10);
    const [header, , ...rows] = runtimeComparison(dir).split('\n');
    expect(header).toBe(`| | Node 24: pending | Node ${report.machine.node} (${date}) |`);
    const saturation = rows.find((row) => row.startsWith('| saturation ≥ 2× Portkey’s |'));
    expect(saturation).toMatch(/^\| saturation ≥ 2× Portkey’s \| – \| \d+ req\/s (✅|❌) \|$/);
    expect(rows).toContainEqual(
      expect.stringMatching(/^\| saturation \(64 connections\), portkey \| – \| \d+ req\/s \|$/),
    );
  });

  it('--node for the runtime already running goes on here', () => {
    expect(continueOnNode(nodeMajor())).toBeUndefined();
    expect(continueOnNode(undefined)).toBeUndefined();
  });
});

describe('profile modules', () => {
  const frame = (url, functionName = 'f') => ({
    url,
    functionName,
    lineNumber: 0,
    columnNumber: 0,
  });

  it('groups frames by package, gateway build, node subsystem and V8', () => {
    const pnpm = '/repo/node_modules/.pnpm';
    expect(moduleOf(frame(`file://${pnpm}/undici@7.30.2/node_modules/undici/lib/x.js`))).toBe(
      'undici',
    );
    expect(
      moduleOf(frame(`file://${pnpm}/@hono+node-server@1.14.1_hono@4.13.19/node_modules/x.js`)),
    ).toBe('@hono/node-server');
    expect(moduleOf(frame('file:///repo/apps/gateway/dist/chunk-A.js'))).toBe(
      'modelgate (apps/gateway/dist)',
    );
    expect(moduleOf(frame('node:internal/webstreams/readablestream'))).toBe('node:webstreams');
    expect(moduleOf(frame('node:internal/deps/undici/undici'))).toBe('node:undici');
    expect(moduleOf(frame('node:_http_server'))).toBe('node:http');
    expect(moduleOf(frame('', '(garbage collector)'))).toBe('(garbage collector)');
    expect(moduleOf(frame('', 'writev'))).toBe('native');
  });

  it('counts self time, and only inside the window when one is given', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('', '(root)'), children: [2, 3] },
        { id: 2, callFrame: frame('node:internal/webstreams/readablestream', 'pull') },
        { id: 3, callFrame: frame('', '(idle)') },
      ],
      // 1 ms each: webstreams at 1 and 2 ms, idle at 3 ms, webstreams at 4 ms.
      samples: [2, 2, 3, 2],
      timeDeltas: [1000, 1000, 1000, 1000],
    };
    const all = summarizeProfile(profile);
    expect(all.totalMs).toBe(4);
    expect(all.byModule[0]).toMatchObject({ name: 'node:webstreams', ms: 3, share: 0.75 });
    const late = summarizeProfile(profile, { window: { fromMs: 2.5, toMs: 10 } });
    expect(late.totalMs).toBe(2);
    expect(late.byModule.map((m) => m.name).sort()).toEqual(['(idle)', 'node:webstreams']);
  });
});
