/**
 * Counters and histograms for the hot paths (every statement, every KV read). prom-client's own
 * validate and hash the label object on each call (0.5-1 µs, several times per statement); these
 * bind a series per label-value combination once (`child(...)`), after which counting is an
 * addition and observing a bucket search. They register in a prom-client Registry like its own
 * metrics (the registry reads only name, help, type, aggregator and get()), so the text format
 * and the `--workers` aggregation remain prom-client's.
 */
import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Sample {
  readonly value: number;
  readonly labels: Labels;
  readonly metricName?: string;
}

interface MetricSnapshot {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  readonly values: Sample[];
}

export interface MetricDef {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly registry: Registry;
}

abstract class FastMetric<S> {
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly string[];
  private readonly series = new Map<string, { labels: Labels; series: S }>();

  constructor(def: MetricDef) {
    this.name = def.name;
    this.help = def.help;
    this.labelNames = def.labelNames;
    // The registry only needs the shape above, not prom-client's class.
    def.registry.registerMetric(this as unknown as Metric);
  }

  abstract readonly type: MetricSnapshot['type'];
  protected abstract create(): S;
  protected abstract samples(labels: Labels, series: S): Sample[];

  /** The series of these label values (in labelNames order); keep it for repeated use. */
  child(...values: string[]): S {
    const key = values.join('\u0000');
    let entry = this.series.get(key);
    if (entry === undefined) {
      const labels: Labels = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i] ?? ''));
      entry = { labels, series: this.create() };
      this.series.set(key, entry);
    }
    return entry.series;
  }

  get(): Promise<MetricSnapshot> {
    const values = [...this.series.values()].flatMap((e) => this.samples(e.labels, e.series));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    this.series.clear();
  }
}

export class CounterSeries {
  value = 0;
  inc(n = 1): void {
    this.value += n;
  }
}

export class FastCounter extends FastMetric<CounterSeries> {
  readonly type = 'counter';

  protected create(): CounterSeries {
    return new CounterSeries();
  }

  protected samples(labels: Labels, s: CounterSeries): Sample[] {
    return [{ value: s.value, labels }];
  }
}

export class HistogramSeries {
  /** Observations per bucket (not cumulative); index bounds.length is above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count++;
  }
}

export class FastHistogram extends FastMetric<HistogramSeries> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(def: MetricDef & { readonly buckets: readonly number[] }) {
    super(def);
    this.bounds = [...def.buckets].sort((a, b) => a - b);
  }

  protected create(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }

  protected samples(labels: Labels, s: HistogramSeries): Sample[] {
    const out: Sample[] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += s.counts[i] as number;
      out.push({ value: cumulative, labels: { le: String(bound), ...labels }, metricName: `${this.name}_bucket` });
    });
    out.push({ value: s.count, labels: { le: '+Inf', ...labels }, metricName: `${this.name}_bucket` });
    out.push({ value: s.sum, labels, metricName: `${this.name}_sum` });
    out.push({ value: s.count, labels, metricName: `${this.name}_count` });
    return out;
  }
}
