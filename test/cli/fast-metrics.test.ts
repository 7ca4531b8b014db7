/** The cheap counters and histograms: prom-client's text format and --workers aggregation. */
import { AggregatorRegistry, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram } from '../../src/cli/fast-metrics.js';

function setUp(): { registry: Registry; counter: FastCounter; histogram: FastHistogram } {
  const registry = new Registry();
  const counter = new FastCounter({ name: 'x_total', help: 'Things', labelNames: ['kind', 'result'], registry });
  const histogram = new FastHistogram({ name: 'x_seconds', help: 'Time', labelNames: ['op'], buckets: [0.1, 0.01, 1], registry });
  return { registry, counter, histogram };
}

describe('FastCounter and FastHistogram', () => {
  it('print as prom-client metrics (cumulative buckets, +Inf, _sum, _count)', async () => {
    const { registry, counter, histogram } = setUp();
    counter.child('select', 'ok').inc();
    counter.child('select', 'ok').inc(2);
    counter.child('insert', 'error').inc();
    const get = histogram.child('get');
    for (const v of [0.005, 0.05, 0.05, 0.5, 5]) get.observe(v);
    expect(await registry.metrics()).toBe(
      [
        '# HELP x_total Things',
        '# TYPE x_total counter',
        'x_total{kind="select",result="ok"} 3',
        'x_total{kind="insert",result="error"} 1',
        '',
        '# HELP x_seconds Time',
        '# TYPE x_seconds histogram',
        'x_seconds_bucket{le="0.01",op="get"} 1',
        'x_seconds_bucket{le="0.1",op="get"} 3',
        'x_seconds_bucket{le="1",op="get"} 4',
        'x_seconds_bucket{le="+Inf",op="get"} 5',
        'x_seconds_sum{op="get"} 5.605',
        'x_seconds_count{op="get"} 5',
        '',
      ].join('\n'),
    );
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('x_total{');
  });

  it('a boundary value falls in its own bucket (le is inclusive)', async () => {
    const { registry, histogram } = setUp();
    histogram.child('get').observe(0.1);
    expect(await registry.metrics()).toContain('x_seconds_bucket{le="0.1",op="get"} 1');
    expect(await registry.metrics()).toContain('x_seconds_bucket{le="0.01",op="get"} 0');
  });

  it('sum up across worker registries like prom-client metrics', async () => {
    const a = setUp();
    const b = setUp();
    a.counter.child('select', 'ok').inc(2);
    b.counter.child('select', 'ok').inc(3);
    a.histogram.child('get').observe(0.5);
    b.histogram.child('get').observe(0.05);
    const merged = AggregatorRegistry.aggregate([await a.registry.getMetricsAsJSON(), await b.registry.getMetricsAsJSON()]);
    const text = await merged.metrics();
    expect(text).toContain('x_total{kind="select",result="ok"} 5');
    expect(text).toContain('x_seconds_bucket{le="0.1",op="get"} 1');
    expect(text).toContain('x_seconds_bucket{le="1",op="get"} 2');
    expect(text).toContain('x_seconds_count{op="get"} 2');
  });
});
