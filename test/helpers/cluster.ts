/**
 * Test helpers around the real `shale cluster` CLI (built dist/): port layouts picked free for
 * the run, up/down, the recorded state, and connecting through HAProxy.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { findExecutable } from '../../src/cli/cluster/processes.js';
import { parseClusterState, type ClusterState } from '../../src/cli/cluster/state-file.js';
import { portIsFree } from '../../src/cli/cluster/wait.js';
import { REPO_ROOT } from './node.js';

/** The binaries a cluster needs that are not installed (scripts/system-deps.sh installs them). */
export const MISSING_CLUSTER_BINARIES = ['etcd', 'haproxy'].filter((bin) => findExecutable(bin) === undefined);

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/shale.js <args...>` and returns its exit code and output. */
export function shaleCli(args: readonly string[], timeoutMs = 90_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), ...args], { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `node bin/shale.js cluster <args...>`. */
export function shale(args: readonly string[]): Promise<Run> {
  return shaleCli(['cluster', ...args]);
}

export interface Ports {
  readonly etcdBase: number;
  readonly nodeBase: number;
  readonly haproxy: number;
  readonly all: readonly number[];
}

/**
 * Base ports below Linux's ephemeral range whose whole layout (3 etcd members, 2 nodes and their
 * status ports 1000 above) is free.
 */
export async function pickPorts(): Promise<Ports> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 15_000 + 10 * Math.floor(Math.random() * 1_600);
    const ports = { etcdBase: base, nodeBase: base + 10, haproxy: base + 20 };
    const all = [base, base + 1, base + 100, base + 101, base + 200, base + 201, base + 10, base + 11, base + 20, base + 1010, base + 1011];
    if ((await Promise.all(all.map((p) => portIsFree(p)))).every(Boolean)) return { ...ports, all };
  }
  throw new Error('no free port layout found');
}

/** `cluster up` arguments for 3 etcd members and 2 SQL nodes on `ports`. */
export function upArgs(dir: string, ports: Ports, extra: readonly string[] = []): string[] {
  const store = process.env['SHALE_CLUSTER_TEST_STORE'] === 'lmdb' ? ['--store', `lmdb://${join(dir, 'lmdb')}`] : [];
  return [
    'up', '--dir', dir,
    '--etcd-members', '3', '--nodes', '2',
    '--port', String(ports.haproxy), '--node-base-port', String(ports.nodeBase), '--etcd-base-port', String(ports.etcdBase),
    '--log-level', 'warn',
    ...store, ...extra,
  ];
}

export function readState(dir: string): ClusterState {
  return parseClusterState(JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')));
}

export function allPids(state: ClusterState): number[] {
  return [state.haproxy.pid, ...state.nodes.map((n) => n.pid), ...state.etcd.map((m) => m.pid)];
}

export async function connect(port: number, database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port, user: 'root', ...(database ? { database } : {}) });
}

/** Connects, retrying for a few seconds (a just-killed node may take a moment to leave the rotation). */
export async function connectWithRetry(port: number, database: string): Promise<mysql.Connection> {
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

export interface TestCluster {
  readonly dir: string;
  readonly ports: Ports;
  readonly up: Run;
  readonly state: ClusterState;
}

/** `cluster up` in `dir` on free ports; throws with the CLI's output when it fails. */
export async function clusterUp(dir: string): Promise<TestCluster> {
  const ports = await pickPorts();
  const up = await shale(upArgs(dir, ports));
  if (up.code !== 0) throw new Error(`cluster up failed (${up.code}):\n${up.stdout}\n${up.stderr}`);
  return { dir, ports, up, state: readState(dir) };
}

/** `cluster down` if a cluster is recorded in `dir`, then removes dir's parent (the test's temp dir). */
export async function clusterCleanup(dir: string): Promise<void> {
  if (existsSync(join(dir, 'cluster.json'))) await shale(['down', '--dir', dir]);
  rmSync(join(dir, '..'), { recursive: true, force: true });
}
