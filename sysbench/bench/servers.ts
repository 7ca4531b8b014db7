/**
 * The servers the harness compares, each started in its own scratch directory on 127.0.0.1 and
 * stopped afterwards: ShaleDB on its embedded store (`shale serve`), a ShaleDB cluster (`shale
 * cluster up`: etcd members, SQL nodes, HAProxy) and a private MariaDB (sysbench/mariadb.sh:
 * Debian's mariadbd with default settings, durable commits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { SQL_NODE_V8_FLAGS } from '../../src/cli/v8-flags.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SHALE = join(ROOT, 'bin', 'shale.js');

export type ServerName = 'shaledb' | 'cluster' | 'mariadb';

export interface BenchServer {
  readonly name: ServerName;
  /** What the report calls it, e.g. "ShaleDB (embedded, --workers 2)". */
  readonly label: string;
  readonly port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One line about the version, for the report. */
  version(): Promise<string>;
  /** The pid whose process tree is the server (for its memory), when the harness knows one. */
  pid(): number | undefined;
}

export interface ServerOptions {
  readonly dir: string;
  readonly port: number;
  readonly workers: number;
}

/** Waits until a MySQL client can run `SELECT 1` on the port. */
export async function waitForSql(port: number, timeoutMs: number, proc?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    if (proc !== undefined && proc.exitCode !== null) throw new Error(`server exited with code ${proc.exitCode}`);
    try {
      const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
      await c.query('SELECT 1');
      await c.end();
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`no SQL answer on port ${port} after ${timeoutMs} ms: ${String(last)}`);
}

/** Runs statements on a fresh connection. */
export async function sql(port: number, statements: readonly string[]): Promise<unknown[]> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
  try {
    const out: unknown[] = [];
    for (const s of statements) out.push((await c.query(s))[0]);
    return out;
  } finally {
    await c.end();
  }
}

/** Runs a script that leaves a daemon behind: waits for the script's exit, not its pipes. */
async function runDetaching(cmd: string, args: readonly string[]): Promise<void> {
  const child = spawn(cmd, args, { stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}`);
}

async function selectVersion(port: number): Promise<string> {
  const [rows] = (await sql(port, ['SELECT VERSION() AS v'])) as [Array<{ v: string }>];
  return rows[0]?.v ?? 'unknown';
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

export function shaleEmbedded(opts: ServerOptions): BenchServer {
  let child: ChildProcess | undefined;
  return {
    name: 'shaledb',
    label: `ShaleDB (embedded${opts.workers > 1 ? `, --workers ${opts.workers}` : ''})`,
    port: opts.port,
    async start() {
      const args = [...SQL_NODE_V8_FLAGS, SHALE, 'serve', '--host', '127.0.0.1', '--port', String(opts.port), '--data-dir', join(opts.dir, 'shale'),
        '--workers', String(opts.workers), '--status-port', '0', '--log-level', 'warn'];
      child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
      await waitForSql(opts.port, 60_000, child);
    },
    async stop() {
      if (child !== undefined) await stopChild(child);
    },
    version: () => selectVersion(opts.port),
    pid: () => child?.pid,
  };
}

export function shaleCluster(opts: ServerOptions): BenchServer {
  const dir = join(opts.dir, 'cluster');
  const base = opts.port + 1;
  return {
    name: 'cluster',
    label: `ShaleDB cluster (3 etcd, 2 nodes${opts.workers > 1 ? ` × ${opts.workers} workers` : ''}, HAProxy)`,
    port: opts.port,
    async start() {
      await runDetaching(process.execPath, [SHALE, 'cluster', 'up', '--dir', dir, '--port', String(opts.port), '--node-base-port', String(base),
        '--etcd-base-port', String(opts.port + 2000), '--workers', String(opts.workers), '--log-level', 'warn']);
      await waitForSql(opts.port, 60_000);
    },
    async stop() {
      await runDetaching(process.execPath, [SHALE, 'cluster', 'down', '--dir', dir]).catch(() => undefined);
    },
    version: () => selectVersion(opts.port),
    // Daemons of several kinds (etcd, SQL nodes, HAProxy), not one process tree.
    pid: () => undefined,
  };
}

export function mariadb(opts: ServerOptions): BenchServer {
  const script = join(ROOT, 'sysbench', 'mariadb.sh');
  const dataDir = join(opts.dir, 'mariadb');
  return {
    name: 'mariadb',
    label: 'MariaDB (Debian package, default settings)',
    port: opts.port,
    async start() {
      await runDetaching('bash', [script, 'start', dataDir, String(opts.port)]);
      await waitForSql(opts.port, 60_000);
    },
    async stop() {
      await runDetaching('bash', [script, 'stop', dataDir]).catch(() => undefined);
    },
    version: () => selectVersion(opts.port),
    pid: () => {
      try {
        const pid = Number(readFileSync(join(dataDir, 'mysqld.pid'), 'utf8').trim());
        return Number.isInteger(pid) && pid > 0 ? pid : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
