/** Runs sysbench 1.0.20 (Debian package) against a MySQL endpoint on 127.0.0.1 (the harness's runner). */
import { sysbench as runSysbench } from '../../sysbench/bench/sysbench-cmd.js';

export { WORKLOADS } from '../../sysbench/bench/sysbench-cmd.js';

export interface SysbenchTarget {
  readonly port: number;
  readonly tables: number;
  readonly tableSize: number;
}

/** `sysbench <workload> … <command>`; resolves with its output, rejects on a non-zero exit. */
export async function sysbench(
  target: SysbenchTarget,
  workload: string,
  command: string,
  extra: readonly string[] = [],
): Promise<{ stdout: string }> {
  return { stdout: await runSysbench(target.port, target, workload, command, extra) };
}

/** Transactions per second reported by a `run`, or undefined when the output has none. */
export function transactionsOf(stdout: string): number | undefined {
  const m = /transactions:\s+(\d+)/.exec(stdout);
  return m === null ? undefined : Number(m[1]);
}
