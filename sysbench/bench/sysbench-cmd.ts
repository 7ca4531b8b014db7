/** Runs sysbench 1.0.20 (Debian package) against a MySQL endpoint on 127.0.0.1. */
import { spawn } from 'node:child_process';

export const WORKLOADS = [
  'oltp_point_select',
  'oltp_read_only',
  'oltp_write_only',
  'oltp_read_write',
  'oltp_insert',
  'oltp_update_index',
  'oltp_update_non_index',
  'oltp_delete',
] as const;

export interface DataSize {
  readonly tables: number;
  readonly tableSize: number;
}

/** A sysbench run that outlived its deadline: the server stopped answering (it was killed). */
export class SysbenchTimeout extends Error {}

/**
 * `sysbench <workload> <common options> <extra> <command>`: resolves with stdout, rejects on
 * failure; with `timeoutMs`, kills sysbench past it and rejects with SysbenchTimeout.
 */
export function sysbench(port: number, size: DataSize, workload: string, command: string, extra: readonly string[] = [], timeoutMs?: number): Promise<string> {
  const args = [
    workload,
    '--db-driver=mysql',
    '--mysql-host=127.0.0.1',
    `--mysql-port=${port}`,
    '--mysql-user=root',
    '--mysql-db=sbtest',
    `--tables=${size.tables}`,
    `--table-size=${size.tableSize}`,
    ...extra,
    command,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('sysbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString();
      if (timedOut) reject(new SysbenchTimeout(`sysbench ${workload} ${command} did not finish within ${timeoutMs} ms: the server stopped answering`));
      else if (code === 0) resolve(stdout);
      else reject(new Error(`sysbench ${workload} ${command} exited with ${code}: ${(Buffer.concat(err).toString() + stdout).slice(-600)}`));
    });
  });
}

/** A run may take this much longer than its --time (connecting, the last transactions, the report). */
export const RUN_GRACE_MS = 60_000;

/** `sysbench <workload> run` with the options the harness measures with (killed RUN_GRACE_MS past its time). */
export function runWorkload(port: number, size: DataSize, workload: string, threads: number, seconds: number): Promise<string> {
  const extra = [`--threads=${threads}`, `--time=${seconds}`, '--percentile=99', '--histogram=on', '--report-interval=0'];
  return sysbench(port, size, workload, 'run', extra, seconds * 1000 + RUN_GRACE_MS);
}
