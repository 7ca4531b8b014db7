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

/** `sysbench <workload> <common options> <extra> <command>`: resolves with stdout, rejects on failure. */
export function sysbench(port: number, size: DataSize, workload: string, command: string, extra: readonly string[] = []): Promise<string> {
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
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString();
      if (code === 0) resolve(stdout);
      else reject(new Error(`sysbench ${workload} ${command} exited with ${code}: ${(Buffer.concat(err).toString() + stdout).slice(-600)}`));
    });
  });
}

/** `sysbench <workload> run` with the options the harness measures with. */
export function runWorkload(port: number, size: DataSize, workload: string, threads: number, seconds: number): Promise<string> {
  return sysbench(port, size, workload, 'run', [`--threads=${threads}`, `--time=${seconds}`, '--percentile=99', '--histogram=on', '--report-interval=0']);
}
