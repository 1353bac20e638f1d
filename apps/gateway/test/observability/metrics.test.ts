import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.js';

describe('metrics', () => {
  it('renders counters, gauges and cumulative histograms in Prometheus text format', () => {
    const m = createMetrics();
    const c = m.counter('mg_test_total', 'A test\ncounter');
    c.inc({ route: '/a"b' });
    c.inc({ route: '/a"b' }, 2);
    expect(m.counter('mg_test_total', 'again')).toBe(c);
    m.gauge('mg_g', 'gauge').set(undefined, 5);
    const h = m.histogram('mg_h_seconds', 'hist', [0.1, 1]);
    h.observe({ r: 'x' }, 0.05);
    h.observe({ r: 'x' }, 0.5);
    h.observe({ r: 'x' }, 5);
    const text = m.render();
    expect(text).toContain('# HELP mg_test_total A test\\ncounter');
    expect(text).toContain('mg_test_total{route="/a\\"b"} 3');
    expect(text).toContain('mg_g 5');
    expect(text).toContain('mg_h_seconds_bucket{r="x",le="0.1"} 1');
    expect(text).toContain('mg_h_seconds_bucket{r="x",le="1"} 2');
    expect(text).toContain('mg_h_seconds_bucket{r="x",le="+Inf"} 3');
    expect(text).toContain('mg_h_seconds_sum{r="x"} 5.55');
    expect(() => m.gauge('mg_test_total', 'clash')).toThrow();
    expect(() => c.inc(undefined, -1)).toThrow();
  });
});
