/** sysbench run reports → numbers; the histogram's p99 must agree with sysbench's own. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { histogramOf, parseRunReport, percentile } from '../../sysbench/bench/report-parse.js';

const REPORT = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'sysbench-run-histogram.txt'), 'utf8');

describe('parseRunReport', () => {
  it('reads a real oltp_read_write report (MariaDB, --histogram=on)', () => {
    const n = parseRunReport(REPORT);
    expect(n).toMatchObject({ tps: 647.78, qps: 13310.38, avgMs: 3.07, ignoredPerSec: 21.92, events: 650, p99Reported: 9.39 });
    // sysbench computes its percentile from the same histogram: both agree to its 2 printed decimals.
    expect(n.p99Ms).toBeCloseTo(n.p99Reported, 2);
    expect(n.p95Ms).toBeGreaterThan(n.avgMs);
    expect(n.p95Ms).toBeLessThan(n.p99Ms);
  });

  it('counts every histogram event', () => {
    expect(histogramOf(REPORT).reduce((s, b) => s + b.count, 0)).toBe(650);
  });

  it('rejects output without a transactions line', () => {
    expect(() => parseRunReport('FATAL: mysql_drv_query() returned error 1146')).toThrow(/not a sysbench run report/);
  });
});

describe('percentile', () => {
  it('is the first bucket bound covering the share', () => {
    const b = [{ ms: 1, count: 90 }, { ms: 2, count: 5 }, { ms: 3, count: 4 }, { ms: 10, count: 1 }];
    expect(percentile(b, 0.9)).toBe(1);
    expect(percentile(b, 0.95)).toBe(2);
    expect(percentile(b, 0.99)).toBe(3);
    expect(percentile(b, 1)).toBe(10);
    expect(percentile([], 0.99)).toBeNaN();
  });

  it('is monotonic in the share and bounded by the buckets', () => {
    const buckets = fc.array(fc.record({ ms: fc.double({ min: 0.001, max: 1e4, noNaN: true }), count: fc.integer({ min: 0, max: 1000 }) }), { minLength: 1 })
      .map((xs) => xs.sort((a, b) => a.ms - b.ms))
      .filter((xs) => xs.some((x) => x.count > 0));
    fc.assert(
      fc.property(buckets, fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (xs, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const pLo = percentile(xs, lo);
        const pHi = percentile(xs, hi);
        return pLo <= pHi && pHi <= (xs[xs.length - 1] as { ms: number }).ms && pLo >= (xs[0] as { ms: number }).ms;
      }),
    );
  });
});
