/**
 * Prometheus metrics of one SQL process: the engine reports statements, transactions,
 * connections and the schema version through EngineObserver; the instrumented KV store
 * (instrumented-store.ts) reports read and commit latencies; prom-client's default process
 * metrics (CPU, memory, event loop lag, GC) come with them. The per-statement series use the
 * cheap counters and histograms of fast-metrics.ts. Each metric says how `--workers` processes
 * add up (prom-client's `aggregator`; sum when not given).
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { EngineObserver, StatementObservation, TransactionOutcome } from '../sql/session/index.js';
import { FastCounter, FastHistogram, type CounterSeries, type HistogramSeries } from './fast-metrics.js';
import { KV_COMMIT_RESULTS, KV_READ_OPS, type KvCommitResult, type KvReadOp, type KvTimings } from './instrumented-store.js';

const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const KV_READ_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const KV_COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const OUTCOME_LABEL: Readonly<Record<TransactionOutcome, string>> = {
  committed: 'committed',
  conflicted: 'conflicted',
  retried: 'retried',
  rolledBack: 'rolled_back',
};

/** `result` label of a statement: ok, conflict (1213) or error. */
export function statementResult(errno: number | undefined): 'ok' | 'conflict' | 'error' {
  if (errno === undefined) return 'ok';
  return errno === 1213 ? 'conflict' : 'error';
}

interface KindSeries {
  readonly ok: CounterSeries;
  readonly conflict: CounterSeries;
  readonly error: CounterSeries;
  readonly duration: HistogramSeries;
}

export interface MetricsOptions {
  /** prom-client's process metrics (default true; tests creating many registries turn it off). */
  readonly processMetrics?: boolean;
}

export class ShaleMetrics implements EngineObserver, KvTimings {
  readonly registry = new Registry();
  private readonly connectionsGauge: Gauge;
  private readonly schemaGauge: Gauge;
  private readonly statements: FastCounter;
  private readonly durations: FastHistogram;
  private readonly transactions: ReadonlyMap<TransactionOutcome, CounterSeries>;
  private readonly kvReads: ReadonlyMap<KvReadOp, HistogramSeries>;
  private readonly kvCommits: ReadonlyMap<KvCommitResult, HistogramSeries>;
  /** The series of each statement kind, bound on first use. */
  private readonly kinds = new Map<string, KindSeries>();

  constructor(opts: MetricsOptions = {}) {
    const registry = this.registry;
    const registers = [registry];
    this.connectionsGauge = new Gauge({ name: 'shale_connections', help: 'Open client sessions', registers });
    this.statements = new FastCounter({
      name: 'shale_statements_total',
      help: 'Statements run, by statement kind and result (ok, conflict = 1213, error)',
      labelNames: ['kind', 'result'],
      registry,
    });
    this.durations = new FastHistogram({
      name: 'shale_statement_duration_seconds',
      help: 'Statement run time in the engine, by statement kind',
      labelNames: ['kind'],
      buckets: STATEMENT_BUCKETS,
      registry,
    });
    const transactions = new FastCounter({
      name: 'shale_transactions_total',
      help: 'Transactions by outcome: committed, conflicted (1213 returned), rolled_back; retried counts autocommit re-runs',
      labelNames: ['outcome'],
      registry,
    });
    const outcomes = Object.keys(OUTCOME_LABEL) as TransactionOutcome[];
    this.transactions = new Map(outcomes.map((o) => [o, transactions.child(OUTCOME_LABEL[o])]));
    const kvReads = new FastHistogram({
      name: 'shale_kv_read_seconds',
      help: 'KV store reads: snapshot (start timestamp), get, batch_get, scan',
      labelNames: ['op'],
      buckets: KV_READ_BUCKETS,
      registry,
    });
    this.kvReads = new Map(KV_READ_OPS.map((op) => [op, kvReads.child(op)]));
    const kvCommits = new FastHistogram({
      name: 'shale_kv_commit_seconds',
      help: 'KV store commits, by result (ok, conflict, error)',
      labelNames: ['result'],
      buckets: KV_COMMIT_BUCKETS,
      registry,
    });
    this.kvCommits = new Map(KV_COMMIT_RESULTS.map((r) => [r, kvCommits.child(r)]));
    this.schemaGauge = new Gauge({ name: 'shale_schema_version', help: 'Newest schema version a statement ran with', registers, aggregator: 'max' });
    const startedAt = Date.now();
    new Gauge({
      name: 'shale_uptime_seconds',
      help: 'Seconds since this SQL process started',
      registers,
      aggregator: 'max',
      collect() {
        this.set((Date.now() - startedAt) / 1000);
      },
    });
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  // --- EngineObserver ----------------------------------------------------------------------------

  statement(o: StatementObservation): void {
    let s = this.kinds.get(o.kind);
    if (s === undefined) {
      s = {
        ok: this.statements.child(o.kind, 'ok'),
        conflict: this.statements.child(o.kind, 'conflict'),
        error: this.statements.child(o.kind, 'error'),
        duration: this.durations.child(o.kind),
      };
      this.kinds.set(o.kind, s);
    }
    s[statementResult(o.errno)].inc();
    s.duration.observe(o.ms / 1000);
  }

  transaction(outcome: TransactionOutcome): void {
    this.transactions.get(outcome)?.inc();
  }

  connections(open: number): void {
    this.connectionsGauge.set(open);
  }

  schemaVersion(version: bigint): void {
    this.schemaGauge.set(Number(version));
  }

  // --- KvTimings ---------------------------------------------------------------------------------

  kvRead(op: KvReadOp, seconds: number): void {
    this.kvReads.get(op)?.observe(seconds);
  }

  kvCommit(result: KvCommitResult, seconds: number): void {
    this.kvCommits.get(result)?.observe(seconds);
  }
}
