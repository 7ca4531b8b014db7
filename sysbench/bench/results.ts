/** What one harness run measured: the JSON file it writes, and what the table and chart read. */
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
}

export interface ServerInfo {
  readonly name: ServerName;
  readonly label: string;
  readonly version: string;
  /** Wall time of `sysbench oltp_common prepare` (one thread per table), seconds. */
  readonly bulkLoadSeconds: number | null;
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
}

export interface BenchResults {
  readonly startedAt: string;
  readonly machine: { readonly cores: number; readonly node: string; readonly sysbench: string; readonly commit: string };
  readonly params: BenchParams;
  readonly servers: ServerInfo[];
  readonly runs: RunResult[];
}

export function findRun(r: BenchResults, server: ServerName, workload: string, threads: number): RunNumbers | null {
  return r.runs.find((x) => x.server === server && x.workload === workload && x.threads === threads)?.numbers ?? null;
}

/** a / b with two decimals, or '-' when either is missing or b is 0. */
export function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '-';
  return (a / b).toFixed(2);
}
