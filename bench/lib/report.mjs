// Turns one run's JSON into verdicts (the issue's targets, each a ratio from this run), plots,
// and the results section of BENCHMARKS.md for the run's Node major (one section per runtime, and
// the side-by-side table of targets that opens the results, built from every latest-nodeN.json).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { overheadGuard } from '../scenarios/overhead.mjs';
import { median } from './stats.mjs';
import { barChart, lineChart, PALETTE } from './svg.mjs';
import { ALL_TARGETS, repoDir } from './targets.mjs';

const MB = 1e6;
const f = (v, digits = 2) => (v == null || Number.isNaN(v) ? '–' : Number(v).toFixed(digits));
/** The median of one figure over repeated runs (null without runs or values). */
const medianOver = (runs, key) => {
  const values = (runs ?? []).map((r) => r[key]).filter((v) => v != null);
  return values.length ? median(values) : null;
};
/** Each repeated streams run's first-chunk delay, e.g. "+80, +151, +225 ms". */
const runList = (runs) =>
  runs ? `${runs.map((r) => `+${f(r.addedFirstChunkMs, 0)}`).join(', ')} ms` : 'one run';
const ok = (scenario) => scenario && !scenario.error;
/** The Node major a run was measured on, from its report: `node24`. */
export const runtimeOf = (report) => `node${/^v(\d+)/.exec(report.machine.node)?.[1] ?? 'unknown'}`;
/** Side-by-side order: the runtime users deploy on first. */
export const PUBLISHED_RUNTIMES = ['node24', 'node20'];
/** A scenario's targets in the fixed order (direct, floor, modelgate, modelgate-pg, portkey). */
const ordered = (targets) =>
  Object.entries(targets).sort(([a], [b]) => ALL_TARGETS.indexOf(a) - ALL_TARGETS.indexOf(b));

/** The issue's targets. `met` is null when this run did not measure what a target needs. */
export function evaluate(report) {
  const { overhead, load, streams, client } = report.scenarios;
  const targets = [];
  const add = (name, value, limit, met, detail) =>
    targets.push({ name, value, limit, met, detail });

  if (ok(overhead) && overhead.targets.modelgate && overhead.targets.floor) {
    const mg = overhead.targets.modelgate.added.plainP50;
    const floor = overhead.targets.floor.added.plainP50;
    add(
      'added p50 ≤ 1.5× the floor',
      `${f(mg, 3)} ms`,
      `${f(1.5 * floor, 3)} ms`,
      mg <= 1.5 * floor,
      `floor ${f(floor, 3)} ms`,
    );
    const pk = overhead.targets.portkey?.added.plainP50;
    if (pk != null)
      add(
        'added p50 ≤ 1/3 of Portkey’s',
        `${f(mg, 3)} ms`,
        `${f(pk / 3, 3)} ms`,
        mg <= pk / 3,
        `Portkey ${f(pk, 3)} ms`,
      );
  }
  if (ok(load) && load.targets.modelgate) {
    const at1000 = load.targets.modelgate.rates[1000];
    const floorAt1000 = load.targets.floor?.rates[1000];
    if (at1000)
      add(
        'p99 added at 1,000 req/s < 2 ms',
        `${f(at1000.added.p99)} ms`,
        '2 ms',
        at1000.added.p99 < 2,
        [
          `throughput ${f(at1000.throughput, 0)} req/s`,
          floorAt1000 && `floor ${f(floorAt1000.added.p99)} ms`,
          at1000.ownTime && `own time p99 ${f(at1000.ownTime.p99)} ms`,
        ]
          .filter(Boolean)
          .join('; '),
      );
    const mg = load.targets.modelgate.saturation?.throughput;
    const pk = load.targets.portkey?.saturation?.throughput;
    if (mg != null && pk != null)
      add(
        'saturation ≥ 2× Portkey’s',
        `${f(mg, 0)} req/s`,
        `${f(2 * pk, 0)} req/s`,
        mg >= 2 * pk,
        `Portkey ${f(pk, 0)} req/s`,
      );
  }
  if (ok(streams)) {
    for (const name of ['modelgate', 'modelgate-pg']) {
      const t = streams.targets[name];
      if (!t) continue;
      // The highest peak over the scenario's repeated runs (older results have one run).
      const held = t.rss.heldMax ?? t.rss.held;
      const full = streams.streams >= 1000;
      const allHeld = t.maxOpen == null || t.maxOpen >= streams.streams;
      add(
        `${streams.streams} concurrent streams < 150 MB RSS (${name === 'modelgate' ? 'PGlite' : 'PostgreSQL'})`,
        `${f(held / MB, 1)} MB`,
        '150 MB',
        held == null ? null : held >= 150 * MB || !allHeld ? false : full ? true : null,
        `idle ${f(t.rss.idle / MB, 0)} MB, ${f(t.rss.perStreamBytes / 1024, 1)} KiB per stream` +
          (allHeld ? '' : `; only ${t.maxOpen} of ${streams.streams} were open at once`),
      );
    }
  }
  if (ok(streams)) {
    const floor = streams.targets.floor;
    const pg = streams.targets['modelgate-pg'];
    if (floor?.addedFirstChunkMs != null && pg?.addedFirstChunkMs != null) {
      const cpu = (t, key) => medianOver(t.runs, key) ?? t[key];
      const ratio = (key) => {
        const [ours, floors] = [cpu(pg, key), cpu(floor, key)];
        return ours && floors ? ours / floors : null;
      };
      add(
        `${streams.streams} streams opened at once: first chunk ≤ 2× the floor's delay (PostgreSQL)`,
        `+${f(pg.addedFirstChunkMs, 0)} ms`,
        `+${f(2 * floor.addedFirstChunkMs, 0)} ms`,
        streams.streams >= 1000 ? pg.addedFirstChunkMs <= 2 * floor.addedFirstChunkMs : null,
        `median of ${streams.repeats ?? 1} runs (${runList(pg.runs)}); floor +${f(floor.addedFirstChunkMs, 0)} ms ` +
          `(${runList(floor.runs)}); CPU per stream (median of runs) ${f(cpu(pg, 'cpuPerStreamMs'))} ms, ` +
          `${f(ratio('cpuPerStreamMs'))}× the floor's; until all are open ${f(ratio('cpuToAllOpenPerStreamMs'))}×`,
      );
    }
  }
  if (ok(client)) {
    const mg = client.bundles.modelgate?.gzipBytes;
    const oa = client.bundles.openai?.gzipBytes;
    add(
      'client bundle ≤ 1/4 of openai’s',
      mg ? `${f(mg / 1024, 1)} KiB` : 'not built',
      oa ? `${f(oa / 4096, 1)} KiB` : '–',
      mg && oa ? mg <= oa / 4 : null,
      'minified + gzip -9',
    );
    const ours = client.parse.parsers['@modelgate/stream']?.mbPerS;
    const theirs = client.parse.parsers['eventsource-parser']?.mbPerS;
    add(
      'SSE parse ≥ eventsource-parser',
      ours ? `${f(ours, 1)} MB/s` : 'not available',
      theirs ? `${f(theirs, 1)} MB/s` : '–',
      ours && theirs ? ours >= theirs : null,
      'median of runs, same process',
    );
  }
  const guard = ok(overhead) ? overheadGuard(overhead) : null;
  const lines = targets.map(
    (t) =>
      `${t.met === true ? '✔ met   ' : t.met === false ? '✖ missed' : '· n/a   '} ${t.name}: ${t.value} (limit ${t.limit}; ${t.detail})`,
  );
  return { targets, guard, lines };
}

export function writePlots(report, outDir) {
  const written = [];
  const { load, client } = report.scenarios;
  if (ok(load)) {
    const series = [];
    for (const name of ['floor', 'modelgate', 'modelgate-pg', 'portkey']) {
      const t = load.targets[name];
      if (!t) continue;
      const points = (key) => load.rates.map((rate) => [rate, t.rates[rate]?.added[key]]);
      series.push({ name: `${name} p50`, color: PALETTE[name], points: points('p50') });
      series.push({
        name: `${name} p99`,
        color: PALETTE[name],
        dashed: true,
        points: points('p99'),
      });
    }
    const file = path.join(outDir, `latency-vs-rate-${runtimeOf(report)}.svg`);
    writeFileSync(
      file,
      lineChart({
        title: `Added latency vs request rate (vs direct), Node ${report.machine.node}`,
        xLabel: 'requests per second (log scale)',
        yLabel: 'added latency, ms (log scale; ≤ 0.1 drawn at 0.1)',
        logY: true,
        series,
      }),
    );
    written.push(file);
  }
  if (ok(client)) {
    const colors = { modelgate: PALETTE.modelgate, openai: '#555555', ai: '#ae3ec9' };
    const bars = Object.entries(client.bundles)
      .filter(([key, b]) => key !== 'versions' && b.gzipBytes)
      .map(([key, b]) => ({ label: b.name, value: b.gzipBytes / 1024, color: colors[key] }));
    const file = path.join(outDir, `client-bundle-${runtimeOf(report)}.svg`);
    writeFileSync(
      file,
      barChart({
        title: 'Minimal streaming chat app: initial download, minified + gzip',
        unit: 'KiB',
        bars,
      }),
    );
    written.push(file);
  }
  return written;
}

function overheadTable(o) {
  const rows = [
    '| target | plain p50 | plain p99 | **added p50** | added p99 | TTFT p50 | **added TTFT p50** | added TTFT p99 | x-modelgate-overhead-ms p50 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, t] of ordered(o.targets)) {
    rows.push(
      `| ${name} | ${f(t.plain.p50)} | ${f(t.plain.p99)} | ${f(t.added.plainP50, 3)} | ${f(t.added.plainP99)} | ${f(t.ttft.p50)} | ${f(t.added.ttftP50, 3)} | ${f(t.added.ttftP99)} | ${t.selfReported ? f(t.selfReported.p50, 3) : '–'} |`,
    );
  }
  return rows.join('\n');
}

function loadTable(l) {
  const rows = [
    '| target | rate (req/s) | achieved | added p50 | added p99 | added p99.9 | own time p50 / p99 | errors | peak RSS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, t] of ordered(l.targets)) {
    for (const rate of l.rates) {
      const r = t.rates[rate];
      if (!r) continue;
      rows.push(
        `| ${name} | ${rate} | ${f(r.throughput, 0)} | ${f(r.added.p50)} | ${f(r.added.p99)} | ${f(r.added.p999)} | ${r.ownTime ? `${f(r.ownTime.p50)} / ${f(r.ownTime.p99)}` : '–'} | ${r.errors + r.non2xx + r.timeouts} | ${r.rss ? `${f(r.rss.peak / MB, 0)} MB` : '–'} |`,
      );
    }
    const s = t.saturation;
    if (s)
      rows.push(
        `| ${name} | **max** (${l.saturationConnections} conns) | **${f(s.throughput, 0)}** | p50 ${f(s.latency.p50)} | p99 ${f(s.latency.p99)} | p99.9 ${f(s.latency.p999)} | – | ${s.errors + s.non2xx + s.timeouts} | ${s.rss ? `${f(s.rss.peak / MB, 0)} MB` : '–'} |`,
      );
  }
  return rows.join('\n');
}

function streamsTable(s) {
  const rows = [
    '| target | completed | most open at once | errors | RSS idle | RSS peak (highest run) | **per stream** | CPU per stream | chunk added (median) | first chunk added | drift per chunk | TTFT p50 / p99 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, t] of ordered(s.targets)) {
    rows.push(
      `| ${name} | ${t.main.completed}/${t.main.opened} | ${t.maxOpen ?? '–'} | ${t.main.errors} | ${f(t.rss.idle / MB, 0)} MB | ${f((t.rss.heldMax ?? t.rss.held) / MB, 0)} MB | ${f(t.rss.perStreamBytes / 1024, 1)} KiB | ${t.cpuPerStreamMs == null ? '–' : `${f(t.cpuPerStreamMs)} ms`} | ${f(t.addedPerChunkMs)} ms | ${f(t.addedFirstChunkMs)} ms | ${f(t.driftPerChunkMs)} ms | ${f(t.main.ttft.p50, 0)} / ${f(t.main.ttft.p99, 0)} ms |`,
    );
  }
  if ((s.repeats ?? 1) > 1) {
    rows.push(
      '',
      `Each target was measured ${s.repeats} times, alternating with the others; the row is the run with the median first-chunk delay. First chunk added, run by run: ` +
        ordered(s.targets)
          .map(([name, t]) => `${name} ${runList(t.runs)}`)
          .join('; ') +
        '.',
    );
  }
  const control = Object.values(s.targets)[0]?.control;
  if (control)
    rows.push('', `Control streams (direct, alongside): TTFT p50 ${f(control.ttft.p50, 0)} ms.`);
  return rows.join('\n');
}

function clientTables(c) {
  const rows = [
    '| app | initial, minified | **initial, gzip** | with lazy chunks, gzip | files |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const [key, b] of Object.entries(c.bundles)) {
    if (key === 'versions') continue;
    rows.push(
      b.error
        ? `| ${b.name} | build failed | – | – | – |`
        : `| ${b.name} | ${f(b.minifiedBytes / 1024, 1)} KiB | ${f(b.gzipBytes / 1024, 1)} KiB | ${f(b.totalGzipBytes / 1024, 1)} KiB | ${b.chunks} |`,
    );
  }
  const v = c.bundles.versions ?? {};
  rows.push(
    '',
    `Versions: openai ${v.openai}, ai ${v.ai}, @ai-sdk/openai ${v['@ai-sdk/openai']}; esbuild ${v.esbuild} (ESM, code splitting, browser, minified; each file gzip -9).`,
  );
  rows.push('', '| SSE parser | MB/s (median) | events |', '|---|---:|---:|');
  for (const [name, p] of Object.entries(c.parse.parsers)) {
    rows.push(`| ${name} | ${f(p.mbPerS, 1)} | ${p.events} |`);
  }
  if (c.parse.unavailable) {
    rows.push(
      '',
      `@modelgate/stream parser not measured: ${c.parse.unavailable['@modelgate/stream']}`,
    );
  }
  return rows.join('\n');
}

function ledgerTable(l) {
  const rows = [
    '| operation | PGlite ×1 | PGlite ×50 | PostgreSQL ×1 | PostgreSQL ×50 |',
    '|---|---:|---:|---:|---:|',
  ];
  const ops = Object.keys(l.pglite?.results ?? l.postgres?.results ?? {});
  for (const op of ops) {
    const cell = (db, c) => f(l[db]?.results?.[op]?.[c]?.opsPerS, 0);
    rows.push(
      `| ${op} | ${cell('pglite', 1)} | ${cell('pglite', 50)} | ${cell('postgres', 1)} | ${cell('postgres', 50)} |`,
    );
  }
  if (l.httpAuth)
    rows.push(
      `| HTTP GET credit_grants (PGlite) | ${f(l.httpAuth[1]?.throughput, 0)} | ${f(l.httpAuth[50]?.throughput, 0)} | | |`,
    );
  if (l.postgres?.error) rows.push('', `PostgreSQL not measured: ${l.postgres.error}`);
  return rows.join('\n');
}

function consoleTable(c) {
  const rows = [
    `${c.keys.toLocaleString('en')} keys, ${c.usageRows.toLocaleString('en')} usage rows over ${c.days} days (seeded in ${f(c.seedS, 1)} s), PostgreSQL; ${c.repeats} interleaved rounds. The floor is the cheapest authenticated call.`,
    '',
    '| console call | p50 ms | max ms | p50 × floor | bytes |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const [name, r] of Object.entries(c.calls)) {
    rows.push(`| ${name} | ${f(r.p50, 1)} | ${f(r.max, 1)} | ${f(r.xFloor, 1)} | ${r.bytes} |`);
  }
  return rows.join('\n');
}

const cell = (t) =>
  t ? `${t.value} ${t.met === true ? '✅' : t.met === false ? '❌' : ''}`.trim() : '–';

/** A few absolute figures per runtime, beside the targets (ratios) they decide. */
function headlineFigures(report) {
  const { overhead, load } = report.scenarios;
  const rows = [];
  for (const name of ['modelgate', 'floor', 'portkey']) {
    const p50 = ok(overhead) ? overhead.targets[name]?.added.plainP50 : null;
    if (p50 != null) rows.push([`added p50, ${name}`, `${f(p50, 3)} ms`]);
  }
  for (const name of ['modelgate', 'modelgate-pg', 'floor', 'portkey']) {
    const rps = ok(load) ? load.targets[name]?.saturation?.throughput : null;
    if (rps != null)
      rows.push([
        `saturation (${load.saturationConnections} connections), ${name}`,
        `${f(rps, 0)} req/s`,
      ]);
  }
  return rows;
}

/**
 * The table that opens the results: every target and a few absolute figures, one column per
 * runtime, from the latest full run on each (`pending` with the command when there is none yet).
 */
export function runtimeComparison(outDir) {
  const reports = PUBLISHED_RUNTIMES.map((label) => {
    const file = path.join(outDir, `latest-${label}.json`);
    return { label, report: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null };
  });
  const rowNames = [];
  const values = reports.map(({ report }) => {
    const byName = new Map();
    if (!report) return byName;
    for (const t of evaluate(report).targets) byName.set(t.name, cell(t));
    for (const [name, value] of headlineFigures(report)) byName.set(name, value);
    for (const name of byName.keys()) if (!rowNames.includes(name)) rowNames.push(name);
    return byName;
  });
  const header = reports.map(({ label, report }) =>
    report
      ? `Node ${report.machine.node} (${report.startedAt.slice(0, 10)})`
      : `Node ${label.slice(4)}: pending`,
  );
  const pending = reports
    .filter(({ report }) => !report)
    .map(
      ({ label }) =>
        `Node ${label.slice(4)}: pending — \`pnpm bench --node ${label.slice(4)}\` on a quiet machine (~13 min) fills its column.`,
    );
  if (rowNames.length === 0) return pending.join('\n');
  return [
    [`| | ${header.join(' | ')} |`, `|---|${reports.map(() => '---:').join('|')}|`]
      .concat(
        rowNames.map(
          (name) => `| ${name} | ${values.map((v) => v.get(name) ?? '–').join(' | ')} |`,
        ),
      )
      .join('\n'),
    ...pending,
  ].join('\n\n');
}

/** Replaces the text between `<!-- NAME:start … -->` and `<!-- NAME:end -->` (appends the block when absent). */
function replaceBlock(text, name, note, body) {
  const block = `<!-- ${name}:start (${note}) -->\n${body}\n<!-- ${name}:end -->`;
  const re = new RegExp(`<!-- ${name}:start[\\s\\S]*?<!-- ${name}:end -->`);
  return re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n${block}\n`;
}

/**
 * Rewrites the generated parts of BENCHMARKS.md from this run: its runtime's results section
 * (between the `results:nodeN` markers) and the side-by-side table (`runtimes` markers), which
 * reads every runtime's latest-nodeN.json in `outDir`.
 */
export function writeSummary(report, outDir) {
  const file = path.join(repoDir, 'BENCHMARKS.md');
  const verdict = evaluate(report);
  const m = report.machine;
  const runtime = runtimeOf(report);
  const sections = [
    `Run of ${report.startedAt} (${f(report.durationS, 0)} s): ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}. ` +
      `Load average before/after: ${m.loadavg.map((n) => n.toFixed(1)).join(' ')} / ${m.loadavgAfter.map((n) => n.toFixed(1)).join(' ')}` +
      `${m.loadavg[0] > m.cpus * 0.5 ? ' — **taken on a busy machine: other work shared the cores, read ratios, not absolutes**' : ''}. ` +
      `CPU pinning: ${m.pinned.pinned ? `server under test on CPU ${m.pinned.server}, simulator and load generator on CPU ${m.pinned.other}` : 'none'}. Upstream: ${report.upstream}. Raw data: [bench/results/latest-${runtime}.json](bench/results/latest-${runtime}.json).`,
    '### Targets',
    [
      '| target | this run | limit | met | note |',
      '|---|---:|---:|:-:|---|',
      ...verdict.targets.map(
        (t) =>
          `| ${t.name} | ${t.value} | ${t.limit} | ${t.met === true ? '✅' : t.met === false ? '❌' : '–'} | ${t.detail} |`,
      ),
    ].join('\n'),
  ];
  const { overhead, load, streams, client, ledger, console: consoleScale } = report.scenarios;
  const failed = (name, s) => `${name} failed in this run: \`${String(s.error).split('\n')[0]}\``;
  if (overhead)
    sections.push(
      '### 1. Overhead, one request at a time (ms)',
      ok(overhead)
        ? `${overhead.rounds} rounds per target, simulator latency ${overhead.sim.latencyMs} ms, TTFT ${overhead.sim.ttftMs} ms.\n\n${overheadTable(overhead)}`
        : failed('overhead', overhead),
    );
  if (load)
    sections.push(
      '### 2. Load (latency added vs direct at the same rate, ms)',
      ok(load)
        ? `${load.durationS} s per rate after ${load.warmupS} s warm-up. Fixed rates: evenly spaced arrivals, an open loop (workers/paced-client.mjs; latency from the hand-off, so the generator's own send lateness, \`sendLateness\` in latest-${runtime}.json, is left out); max: autocannon, ${load.saturationConnections} connections. ![added latency vs rate](bench/results/latency-vs-rate-${runtime}.svg)\n\n${loadTable(load)}`
        : failed('load', load),
    );
  if (streams)
    sections.push(
      `### 3. ${streams.streams ?? ''} concurrent streams`,
      ok(streams)
        ? `Simulator: TTFT ${streams.sim.ttftMs} ms, ${streams.sim.tokensPerSecond} tokens/s, ${streams.sim.outputTokens} tokens; ${streams.controlStreams} control streams straight to the simulator alongside.\n\n${streamsTable(streams)}`
        : failed('streams', streams),
    );
  if (client)
    sections.push(
      '### 4. Client',
      ok(client)
        ? `![client bundle sizes](bench/results/client-bundle-${runtime}.svg)\n\n${clientTables(client)}`
        : failed('client', client),
    );
  if (ledger)
    sections.push(
      '### 5. Ledger (operations per second)',
      ok(ledger) ? ledgerTable(ledger) : failed('ledger', ledger),
    );
  if (consoleScale)
    sections.push(
      '### 6. Console at scale (one call at a time)',
      ok(consoleScale) ? consoleTable(consoleScale) : failed('console', consoleScale),
    );
  let text = readFileSync(file, 'utf8');
  const note = 'written by pnpm bench; edit outside these markers';
  text = replaceBlock(text, `results:${runtime}`, note, sections.join('\n\n'));
  text = replaceBlock(text, 'runtimes', note, runtimeComparison(outDir));
  writeFileSync(file, text);
  // The repository formats Markdown with Biome (tables aligned): leave the file as `biome check` wants it.
  const biome = path.join(repoDir, 'node_modules', '.bin', 'biome');
  const formatted = spawnSync(biome, ['format', '--write', file], { stdio: 'ignore' });
  if (formatted.status !== 0)
    console.warn('BENCHMARKS.md written but not formatted: run pnpm format');
}
