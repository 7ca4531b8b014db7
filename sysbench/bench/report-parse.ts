/**
 * Numbers from one `sysbench <workload> run --histogram=on --percentile=99` report (sysbench 1.0.20).
 *
 *   transactions:                        82194  (41057.04 per sec.)   -> tps 41057.04
 *   queries:                             82194  (41057.04 per sec.)   -> qps 41057.04
 *   ignored errors:                      0      (0.00 per sec.)       -> ignoredPerSec 0
 *   Latency (ms): ... avg: 0.05  ... 99th percentile: 0.16            -> avgMs, p99Ms (sysbench's own)
 *   Latency histogram: "       0.025 |*****     14120"                -> p95Ms / p99Ms from the counts
 *
 * sysbench prints one percentile per run; the histogram gives every percentile, so p95 and p99
 * both come from it (the bucket bound below which the wanted share of events falls). sysbench's
 * own --percentile=99 line is kept as `p99Reported` to cross-check.
 */
export interface RunNumbers {
  readonly tps: number;
  readonly qps: number;
  readonly avgMs: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly p99Reported: number;
  readonly ignoredPerSec: number;
  readonly events: number;
}

function perSec(text: string, label: string): number | undefined {
  const m = new RegExp(`^\\s*${label}:\\s+(\\d+)\\s+\\(([\\d.]+) per sec\\.\\)`, 'm').exec(text);
  return m === null ? undefined : Number(m[2]);
}

function latency(text: string, label: string): number | undefined {
  const m = new RegExp(`^\\s*${label}:\\s+([\\d.]+)\\s*$`, 'm').exec(text);
  return m === null ? undefined : Number(m[1]);
}

/** The histogram's buckets in ascending order: upper bound (ms) and event count. */
export function histogramOf(text: string): Array<{ readonly ms: number; readonly count: number }> {
  const out: Array<{ ms: number; count: number }> = [];
  for (const m of text.matchAll(/^\s*([\d.]+) \|[* ]*\s(\d+)\s*$/gm)) out.push({ ms: Number(m[1]), count: Number(m[2]) });
  return out;
}

/** The smallest bucket bound at or below which `share` (0..1) of the events fall; NaN when empty. */
export function percentile(buckets: ReadonlyArray<{ readonly ms: number; readonly count: number }>, share: number): number {
  const total = buckets.reduce((s, b) => s + b.count, 0);
  if (total === 0) return Number.NaN;
  const wanted = Math.ceil(total * share);
  let seen = 0;
  for (const b of buckets) {
    seen += b.count;
    if (seen >= wanted) return b.ms;
  }
  return buckets[buckets.length - 1]?.ms ?? Number.NaN;
}

/** Parses a run report; throws when the report has no transaction line (the run failed). */
export function parseRunReport(text: string): RunNumbers {
  const tps = perSec(text, 'transactions');
  if (tps === undefined) throw new Error(`not a sysbench run report: ${text.slice(-300)}`);
  const events = Number(/^\s*total number of events:\s+(\d+)/m.exec(text)?.[1] ?? Number.NaN);
  const buckets = histogramOf(text);
  const p99Reported = latency(text, '99th percentile') ?? Number.NaN;
  return {
    tps,
    qps: perSec(text, 'queries') ?? Number.NaN,
    avgMs: latency(text, 'avg') ?? Number.NaN,
    p95Ms: buckets.length > 0 ? percentile(buckets, 0.95) : Number.NaN,
    p99Ms: buckets.length > 0 ? percentile(buckets, 0.99) : p99Reported,
    p99Reported,
    ignoredPerSec: perSec(text, 'ignored errors') ?? 0,
    events,
  };
}
