/**
 * A tiny Prometheus registry (text exposition format 0.0.4), written by hand to avoid a dependency.
 * Metrics are registered once by name; asking again for the same name returns the same metric, so any
 * module can say `metrics.counter('modelgate_x_total', 'help').inc({ model })` without wiring.
 */

export type Labels = Record<string, string | number>;

export interface Counter {
  inc(labels?: Labels, value?: number): void;
}

export interface Gauge {
  set(labels: Labels | undefined, value: number): void;
  inc(labels?: Labels, value?: number): void;
  dec(labels?: Labels, value?: number): void;
}

export interface Histogram {
  observe(labels: Labels | undefined, value: number): void;
}

export interface Metrics {
  counter(name: string, help: string): Counter;
  gauge(name: string, help: string): Gauge;
  histogram(name: string, help: string, buckets?: number[]): Histogram;
  /** The whole registry in Prometheus text format. */
  render(): string;
}

/** Default latency buckets in seconds. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const NEEDS_ESCAPE = /[\\\n"]/;
const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function labelKey(labels: Labels | undefined): string {
  if (!labels) return '';
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  keys.sort();
  let out = '';
  for (const k of keys) {
    const raw = String(labels[k]);
    // Label values rarely need escaping: test once instead of running three replaces every time.
    const v = NEEDS_ESCAPE.test(raw)
      ? raw.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
      : raw;
    out += `${out ? ',' : ''}${k}="${v}"`;
  }
  return out;
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

interface Entry {
  kind: 'counter' | 'gauge' | 'histogram';
  help: string;
  render(name: string): string;
  api: Counter | Gauge | Histogram;
}

/**
 * Create a registry.
 *
 * @example
 * const metrics = createMetrics();
 * metrics.counter('modelgate_upstream_errors_total', 'Upstream errors').inc({ provider: 'openai' });
 * metrics.histogram('modelgate_upstream_seconds', 'Upstream latency').observe({ provider: 'openai' }, 0.42);
 * metrics.render(); // "# HELP modelgate_upstream_errors_total …"
 */
export function createMetrics(): Metrics {
  const entries = new Map<string, Entry>();

  const register = <T extends Entry['api']>(
    name: string,
    kind: Entry['kind'],
    make: () => Entry,
  ): T => {
    if (!NAME_RE.test(name)) throw new Error(`invalid metric name: ${name}`);
    const existing = entries.get(name);
    if (existing) {
      if (existing.kind !== kind)
        throw new Error(`metric ${name} already registered as ${existing.kind}`);
      return existing.api as T;
    }
    const entry = make();
    entries.set(name, entry);
    return entry.api as T;
  };

  const scalar = (kind: 'counter' | 'gauge', help: string): Entry => {
    const values = new Map<string, number>();
    const add = (labels: Labels | undefined, value: number) => {
      const k = labelKey(labels);
      values.set(k, (values.get(k) ?? 0) + value);
    };
    const api: Counter & Gauge = {
      inc: (labels, value = 1) => {
        if (kind === 'counter' && value < 0) throw new Error('counters only go up');
        add(labels, value);
      },
      dec: (labels, value = 1) => add(labels, -value),
      set: (labels, value) => {
        values.set(labelKey(labels), value);
      },
    };
    return {
      kind,
      help,
      api,
      render: (name) => {
        let out = '';
        for (const [k, v] of values) out += `${name}${k ? `{${k}}` : ''} ${v}\n`;
        return out;
      },
    };
  };

  return {
    counter: (name, help) => register<Counter>(name, 'counter', () => scalar('counter', help)),
    gauge: (name, help) => register<Gauge>(name, 'gauge', () => scalar('gauge', help)),
    histogram: (name, help, buckets = DEFAULT_BUCKETS) =>
      register<Histogram>(name, 'histogram', () => {
        const bounds = [...buckets].sort((a, b) => a - b);
        const series = new Map<string, { counts: number[]; sum: number; count: number }>();
        return {
          kind: 'histogram',
          help,
          api: {
            observe: (labels, value) => {
              const k = labelKey(labels);
              let s = series.get(k);
              if (!s) {
                s = { counts: new Array(bounds.length).fill(0), sum: 0, count: 0 };
                series.set(k, s);
              }
              for (let i = 0; i < bounds.length; i++) if (value <= bounds[i]!) s.counts[i]!++;
              s.sum += value;
              s.count++;
            },
          },
          render: (name) => {
            let out = '';
            for (const [k, s] of series) {
              const pre = k ? `${k},` : '';
              bounds.forEach((b, i) => {
                out += `${name}_bucket{${pre}le="${b}"} ${s.counts[i]}\n`;
              });
              out += `${name}_bucket{${pre}le="+Inf"} ${s.count}\n`;
              out += `${name}_sum${k ? `{${k}}` : ''} ${s.sum}\n`;
              out += `${name}_count${k ? `{${k}}` : ''} ${s.count}\n`;
            }
            return out;
          },
        };
      }),
    render: () => {
      let out = '';
      for (const [name, e] of entries) {
        out += `# HELP ${name} ${escapeHelp(e.help)}\n# TYPE ${name} ${e.kind}\n${e.render(name)}`;
      }
      return out;
    },
  };
}

/**
 * The gateway's standard metrics, registered up front so they appear on /metrics from the start.
 * Feature code increments them through these handles (or by name through `metrics.counter`).
 */
export function registerStandardMetrics(metrics: Metrics) {
  return {
    httpRequests: metrics.counter(
      'modelgate_http_requests_total',
      'HTTP requests by route pattern, method and status.',
    ),
    httpDuration: metrics.histogram(
      'modelgate_http_request_duration_seconds',
      'Time until the response is handed to the listener (streams: until their first byte), by route.',
    ),
    upstreamErrors: metrics.counter(
      'modelgate_upstream_errors_total',
      'Errors from upstream providers, by provider and reason.',
    ),
    tokens: metrics.counter(
      'modelgate_tokens_total',
      'Text tokens metered, by model and direction (in|out).',
    ),
    quotaUnitsCharged: metrics.counter(
      'modelgate_quota_units_charged_total',
      'Quota units charged at settlement, by kind (text|video).',
    ),
    inFlight: metrics.gauge('modelgate_http_in_flight_requests', 'Requests being served now.'),
  };
}

export type StandardMetrics = ReturnType<typeof registerStandardMetrics>;
