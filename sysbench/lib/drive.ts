/**
 * A closed-loop load driver shared by the raw KV benchmarks (etcd-raw.ts, embedded-commit.ts):
 * `concurrency` loops each await one operation after the other until the duration is up; the
 * latency of every successful operation is kept, failed ones are counted.
 */

export interface OpStats {
  /** Completed operations. */
  readonly ops: number;
  readonly opsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Failed operations, not counted in ops. */
  readonly errors: number;
}

export interface DriveResult {
  /** Latencies in ms of the first `n` entries. */
  readonly lat: Float64Array;
  readonly n: number;
  readonly errors: number;
  readonly secs: number;
}

export interface DriveOptions {
  readonly concurrency: number;
  readonly durationS: number;
  /** Named in the message about failed operations on stderr. */
  readonly label: string;
  /** Text for a failure (default: its message). */
  readonly describe?: (err: unknown) => string;
}

/** Runs `op(worker)` in `concurrency` loops for the duration. */
export async function drive(opts: DriveOptions, op: (worker: number) => Promise<void>): Promise<DriveResult> {
  const describe = opts.describe ?? ((err: unknown) => (err instanceof Error ? err.message : String(err)));
  let lat = new Float64Array(1 << 16);
  let n = 0;
  let errors = 0;
  let firstError = '';
  const start = performance.now();
  const end = start + opts.durationS * 1000;
  const loop = async (worker: number): Promise<void> => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await op(worker);
      } catch (err) {
        errors++;
        firstError ||= describe(err);
        continue;
      }
      if (n === lat.length) {
        const bigger = new Float64Array(lat.length * 2);
        bigger.set(lat);
        lat = bigger;
      }
      lat[n++] = performance.now() - t;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, (_, w) => loop(w)));
  if (errors > 0) process.stderr.write(`${opts.label}: ${errors} failed operations, first: ${firstError}\n`);
  return { lat, n, errors, secs: (performance.now() - start) / 1000 };
}

/** Throughput and latency percentiles of a drive() result. */
export function stats(r: DriveResult): OpStats {
  const sorted = r.lat.slice(0, r.n).sort();
  const pct = (p: number): number => (r.n === 0 ? 0 : (sorted[Math.min(r.n - 1, Math.ceil(p * r.n) - 1)] ?? 0));
  return { ops: r.n, opsPerSec: r.n / r.secs, p50Ms: pct(0.5), p99Ms: pct(0.99), errors: r.errors };
}

/** A positive integer command-line value, or `dflt` when absent. */
export function positiveInt(name: string, text: string | undefined, dflt: number): number {
  if (text === undefined) return dflt;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${text}`);
  return n;
}
