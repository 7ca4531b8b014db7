/** Runs sysbench 1.0.20 (Debian package) against a MySQL endpoint on 127.0.0.1. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export { WORKLOADS } from '../../sysbench/bench/sysbench-cmd.js';

export interface SysbenchTarget {
  readonly port: number;
  readonly tables: number;
  readonly tableSize: number;
}

/** `sysbench <workload> … <command>`; resolves with its output, rejects on a non-zero exit. */
export function sysbench(
  target: SysbenchTarget,
  workload: string,
  command: string,
  extra: readonly string[] = [],
): Promise<{ stdout: string; stderr: string }> {
  return run(
    'sysbench',
    [
      workload,
      '--db-driver=mysql',
      '--mysql-host=127.0.0.1',
      `--mysql-port=${target.port}`,
      '--mysql-user=root',
      '--mysql-db=sbtest',
      `--tables=${target.tables}`,
      `--table-size=${target.tableSize}`,
      ...extra,
      command,
    ],
    { maxBuffer: 16 << 20 },
  );
}

/** Transactions per second reported by a `run`, or undefined when the output has none. */
export function transactionsOf(stdout: string): number | undefined {
  const m = /transactions:\s+(\d+)/.exec(stdout);
  return m === null ? undefined : Number(m[1]);
}
