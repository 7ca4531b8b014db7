/** What one harness run measured: the JSON file it writes, and what the table and chart read. */
import type { CpuShare } from './cpu-sample.js';
import type { CpuPerTxn, CpuTime } from './process-cpu.js';
import type { RunNumbers } from './report-parse.js';
import type { RunOrder } from './schedule.js';
import type { ServerName } from './servers.js';

export interface BenchParams {
  readonly tables: number;
  readonly tableSize: number;
  readonly seconds: number;
  readonly threads: readonly number[];
  readonly workloads: readonly string[];
  readonly workers: number;
  /** Absent in results written before the harness had --order (they ran sequentially). */
  readonly order?: RunOrder;
  /** How often each measurement ran (--repeat); absent = 1. */
  readonly rounds?: number;
}

export interface ServerInfo {
  readonly name: ServerName;
  readonly label: string;
  readonly version: string;
  /** Wall time of `sysbench oltp_common prepare` (one thread per table), seconds; the median of bulkLoadRuns. */
  readonly bulkLoadSeconds: number | null;
  /** Each round's bulk load in round order (--repeat loads again, interleaved); absent = one load. */
  readonly bulkLoadRuns?: readonly number[];
  /** The machine's CPU during each of bulkLoadRuns (null where /proc/stat was not readable); absent in older results. */
  readonly bulkLoadCpu?: ReadonlyArray<CpuShare | null>;
  /** The server's own CPU during each of bulkLoadRuns (all its processes; null where /proc could not tell); absent in older results. */
  readonly bulkLoadServerCpu?: ReadonlyArray<CpuTime | null>;
}

export interface RunResult {
  readonly server: ServerName;
  readonly workload: string;
  readonly threads: number;
  readonly numbers: RunNumbers | null;
  /** Why the run has no numbers (sysbench failed, or the run was skipped). */
  readonly error?: string;
  /** sysbench had to be killed: the server stopped answering. */
  readonly timedOut?: boolean;
  /** Which of the --repeat rounds (1-based); absent = 1. */
  readonly round?: number;
  /** The machine's CPU during the run (steal, idle); absent in older results and where /proc/stat is missing. */
  readonly cpu?: CpuShare;
  /** The server's CPU per transaction over the run (user and system time of all its processes, µs); absent in older results and where /proc cannot tell. */
  readonly serverCpu?: CpuPerTxn;
  /** sysbench's own CPU per transaction over the run (µs), which shares the machine's cores with the server; absent in older results and where /proc cannot tell. */
  readonly clientCpu?: CpuPerTxn;
  /** The server's resident memory right after the run, all its processes together (MiB); absent in older results and where /proc cannot tell. */
  readonly rssMiB?: number;
  /** The anonymous part of rssMiB (RssAnon: heaps, buffers; not mapped files such as LMDB's data file); absent in older results. */
  readonly anonMiB?: number;
}

export interface BenchResults {
  readonly startedAt: string;
  readonly machine: { readonly cores: number; readonly node: string; readonly sysbench: string; readonly commit: string };
  readonly params: BenchParams;
  readonly servers: ServerInfo[];
  readonly runs: RunResult[];
}

/** A cell's measured runs (with numbers), in round order. */
function measuredRuns(r: BenchResults, server: ServerName, workload: string, threads: number): Array<RunResult & { numbers: RunNumbers }> {
  const runs = r.runs.filter((x): x is RunResult & { numbers: RunNumbers } => x.server === server && x.workload === workload && x.threads === threads && x.numbers !== null);
  return runs.sort((a, b) => (a.round ?? 1) - (b.round ?? 1));
}

/** A cell's shown run: its one run, or of several rounds the run with the median TPS (the lower middle of an even count). */
export function findRunResult(r: BenchResults, server: ServerName, workload: string, threads: number): (RunResult & { numbers: RunNumbers }) | undefined {
  const byTps = measuredRuns(r, server, workload, threads).sort((a, b) => a.numbers.tps - b.numbers.tps);
  return byTps[Math.floor((byTps.length - 1) / 2)];
}

/** A cell's numbers (findRunResult's run), null when none was measured. */
export function findRun(r: BenchResults, server: ServerName, workload: string, threads: number): RunNumbers | null {
  return findRunResult(r, server, workload, threads)?.numbers ?? null;
}

/** User + system µs of a CPU-per-transaction reading (a run's serverCpu or clientCpu); undefined where not recorded. */
export function cpuTotalUs(c: CpuPerTxn | undefined): number | undefined {
  return c === undefined ? undefined : c.userUs + c.systemUs;
}

/** `server` / `base` of `value`, paired round by round as pairedRatio is; '-' when no round has both. */
export function pairedRunRatio(r: BenchResults, server: ServerName, base: ServerName, workload: string, threads: number, value: (x: RunResult) => number | undefined): string {
  const baseRounds = new Map(measuredRuns(r, base, workload, threads).map((x) => [x.round ?? 1, value(x)]));
  const ratios: number[] = [];
  for (const x of measuredRuns(r, server, workload, threads)) {
    const a = value(x);
    const b = baseRounds.get(x.round ?? 1);
    if (a !== undefined && b !== undefined && b > 0 && Number.isFinite(a)) ratios.push(a / b);
  }
  return ratioText(ratios);
}

/**
 * `server` / `base` for one field, paired round by round (both measured in the same round, so a
 * minute apart in the interleaved order): the median ratio, and min and max when there are
 * several; '-' when no round has both.
 */
export function pairedRatio(r: BenchResults, server: ServerName, base: ServerName, workload: string, threads: number, field: 'tps' | 'p99Ms'): string {
  return pairedRunRatio(r, server, base, workload, threads, (x) => x.numbers?.[field]);
}

/** The median of `xs` (the mean of the middle two for an even count); undefined when empty. */
export function median(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 === 1 ? (s[h] as number) : ((s[h - 1] as number) + (s[h] as number)) / 2;
}

/** Median ratio with two decimals, and (min–max) when there are several; '-' for none. */
function ratioText(ratios: readonly number[]): string {
  const mid = median(ratios);
  if (mid === undefined) return '-';
  if (ratios.length === 1) return mid.toFixed(2);
  return `${mid.toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

/** A server's bulk-load rounds (one value for results without bulkLoadRuns). */
export function bulkRuns(s: ServerInfo): readonly number[] {
  if (s.bulkLoadRuns !== undefined) return s.bulkLoadRuns;
  return s.bulkLoadSeconds === null ? [] : [s.bulkLoadSeconds];
}

/** `server`'s bulk-load time / `base`'s, paired round by round: median (min–max). */
export function bulkRatio(server: ServerInfo, base: ServerInfo): string {
  const a = bulkRuns(server);
  const b = bulkRuns(base);
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (y > 0) ratios.push(x / y);
  }
  return ratioText(ratios);
}

