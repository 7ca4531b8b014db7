/**
 * `shale cluster up|status|down` end to end through the built CLI: 3 etcd members, 2 SQL nodes on
 * the etcd store and HAProxy, on ports picked free for this run. SQL goes through HAProxy and to
 * each node directly; a SIGKILLed node leaves the rotation while new connections keep working;
 * `down` leaves no process and no listening port behind. Failed start-ups stop what they started.
 *
 * SHALE_CLUSTER_TEST_STORE=lmdb runs the SQL nodes on a shared LMDB directory instead of etcd.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable, isRunning } from '../../src/cli/cluster/processes.js';
import { parseClusterState, type ClusterState } from '../../src/cli/cluster/state-file.js';
import { portIsFree } from '../../src/cli/cluster/wait.js';
import { REPO_ROOT, removeDir, tempDir } from '../helpers/node.js';

const missing = ['etcd', 'haproxy'].filter((bin) => findExecutable(bin) === undefined);
if (missing.length > 0) console.warn(`cluster-launcher tests skipped: ${missing.join(' and ')} not installed (scripts/system-deps.sh)`);

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/shale.js cluster ...` and returns its exit code and output. */
function shale(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), 'cluster', ...args], { timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

interface Ports {
  readonly etcdBase: number;
  readonly nodeBase: number;
  readonly haproxy: number;
  readonly all: readonly number[];
}

/** Base ports below Linux's ephemeral range whose whole layout (3 etcd members, 2 nodes) is free. */
async function pickPorts(): Promise<Ports> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 15_000 + 10 * Math.floor(Math.random() * 1_700);
    const ports = { etcdBase: base, nodeBase: base + 10, haproxy: base + 20 };
    const all = [base, base + 1, base + 100, base + 101, base + 200, base + 201, base + 10, base + 11, base + 20];
    if ((await Promise.all(all.map((p) => portIsFree(p)))).every(Boolean)) return { ...ports, all };
  }
  throw new Error('no free port layout found');
}

function upArgs(dir: string, ports: Ports, extra: readonly string[] = []): string[] {
  const store = process.env['SHALE_CLUSTER_TEST_STORE'] === 'lmdb' ? ['--store', `lmdb://${join(dir, 'lmdb')}`] : [];
  return [
    'up', '--dir', dir,
    '--etcd-members', '3', '--nodes', '2',
    '--port', String(ports.haproxy), '--node-base-port', String(ports.nodeBase), '--etcd-base-port', String(ports.etcdBase),
    '--log-level', 'warn',
    ...store, ...extra,
  ];
}

function readState(dir: string): ClusterState {
  return parseClusterState(JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')));
}

function allPids(state: ClusterState): number[] {
  return [state.haproxy.pid, ...state.nodes.map((n) => n.pid), ...state.etcd.map((m) => m.pid)];
}

async function connect(port: number, database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port, user: 'root', ...(database ? { database } : {}) });
}

/** Connects, retrying for a few seconds (a just-killed node may take a moment to leave the rotation). */
async function connectWithRetry(port: number, database: string): Promise<mysql.Connection> {
  let last: unknown;
  for (let i = 0; i < 20; i++) {
    try {
      return await connect(port, database);
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw last;
}

describe.skipIf(missing.length > 0)('shale cluster up/down', () => {
  const dir = join(tempDir('cluster'), 'c');
  let ports: Ports;
  let up: Run;
  let state: ClusterState;

  beforeAll(async () => {
    ports = await pickPorts();
    up = await shale(upArgs(dir, ports));
    if (up.code !== 0) throw new Error(`cluster up failed (${up.code}):\n${up.stdout}\n${up.stderr}`);
    state = readState(dir);
  }, 90_000);

  afterAll(async () => {
    if (existsSync(join(dir, 'cluster.json'))) await shale(['down', '--dir', dir]);
    removeDir(join(dir, '..'));
  }, 60_000);

  it('starts every process, records it and prints how to connect and stop', async () => {
    expect(up.stdout).toContain(`mysql -h127.0.0.1 -P${ports.haproxy} -uroot`);
    expect(up.stdout).toContain(`shale cluster down --dir ${dir}`);
    expect(state.etcd.map((m) => [m.clientPort, m.peerPort])).toEqual([
      [ports.etcdBase, ports.etcdBase + 1],
      [ports.etcdBase + 100, ports.etcdBase + 101],
      [ports.etcdBase + 200, ports.etcdBase + 201],
    ]);
    expect(state.nodes.map((n) => n.port)).toEqual([ports.nodeBase, ports.nodeBase + 1]);
    expect(state.haproxy.port).toBe(ports.haproxy);
    for (const pid of allPids(state)) expect(isRunning(pid)).toBe(true);
    const status = await shale(['status', '--dir', dir]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('all processes are up');
    const again = await shale(upArgs(dir, ports));
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`a cluster is already running in ${dir}`);
  });

  it('serves SQL through HAProxy, and every node sees the same data', async () => {
    const viaProxy = await connect(ports.haproxy);
    await viaProxy.query('CREATE DATABASE clu');
    await viaProxy.query('CREATE TABLE clu.t (id INT PRIMARY KEY, v VARCHAR(20))');
    await viaProxy.query("INSERT INTO clu.t VALUES (1, 'one'), (2, 'two')");
    const [rows] = await viaProxy.query('SELECT id, v FROM clu.t ORDER BY id');
    expect(rows).toEqual([{ id: 1, v: 'one' }, { id: 2, v: 'two' }]);
    await viaProxy.end();
    for (const node of state.nodes) {
      const direct = await connect(node.port, 'clu');
      await direct.query('INSERT INTO t VALUES (?, ?)', [10 + node.port - ports.nodeBase, `node${node.port - ports.nodeBase}`]);
      const [count] = await direct.query('SELECT COUNT(*) AS n FROM t WHERE id IN (1, 2)');
      expect(count).toEqual([{ n: 2 }]);
      await direct.end();
    }
    const check = await connect(ports.haproxy, 'clu');
    const [all] = await check.query('SELECT id FROM t ORDER BY id');
    expect(all).toEqual([{ id: 1 }, { id: 2 }, { id: 10 }, { id: 11 }]);
    await check.end();
  });

  it('keeps accepting new connections through HAProxy after a SQL node is killed', async () => {
    const victim = state.nodes[0]!;
    process.kill(victim.pid, 'SIGKILL');
    for (let i = 0; i < 6; i++) {
      const conn = await connectWithRetry(ports.haproxy, 'clu');
      await conn.query('INSERT INTO t VALUES (?, ?)', [100 + i, 'after']);
      const [rows] = await conn.query('SELECT COUNT(*) AS n FROM t');
      expect(rows).toEqual([{ n: 5 + i }]);
      await conn.end();
    }
    const status = await shale(['status', '--dir', dir]);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/node0 .*DOWN: not running/);
    expect(status.stdout).toMatch(/node1 .*up \(port open\)/);
  });

  it('down stops every recorded process, frees every port and removes the directory', async () => {
    const down = await shale(['down', '--dir', dir]);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('node0 (pid');
    expect(down.stdout).toContain(`stopped; removed ${dir}`);
    for (const pid of allPids(state)) expect(isRunning(pid)).toBe(false);
    for (const port of ports.all) expect(await portIsFree(port)).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });
});

describe.skipIf(missing.length > 0)('shale cluster up failures', () => {
  const root = tempDir('cluster-fail');
  afterAll(() => removeDir(root));

  it('names a busy port and starts nothing', async () => {
    const ports = await pickPorts();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(ports.haproxy, '127.0.0.1', r));
    try {
      const dir = join(root, 'busy');
      const run = await shale(upArgs(dir, ports));
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`port ${ports.haproxy} (HAProxy) is already in use`);
      expect(existsSync(join(dir, 'cluster.json'))).toBe(false);
      for (const port of ports.all.filter((p) => p !== ports.haproxy)) expect(await portIsFree(port)).toBe(true);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('stops the etcd members it started when a SQL node cannot start, and shows its log', async () => {
    const ports = await pickPorts();
    const dir = join(root, 'badstore');
    const run = await shale([...upArgs(dir, ports), '--store', 'bogus://nowhere']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('gave up waiting for node0');
    expect(run.stderr).toContain("unsupported store URL scheme 'bogus://'");
    expect(existsSync(join(dir, 'cluster.json'))).toBe(false);
    expect(existsSync(join(dir, 'etcd-0'))).toBe(false);
    expect(existsSync(join(dir, 'logs', 'node-0.log'))).toBe(true);
    for (const port of ports.all) expect(await portIsFree(port)).toBe(true);
  });

  it('down without a cluster says so', async () => {
    const run = await shale(['down', '--dir', join(root, 'nothing')]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('no cluster was started with --dir');
  });
});
