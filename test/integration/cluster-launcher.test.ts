/**
 * `shale cluster up|status|down` end to end through the built CLI: 3 etcd members, 2 SQL nodes on
 * the etcd store and HAProxy, on ports picked free for this run. SQL goes through HAProxy and to
 * each node directly; a SIGKILLed node leaves the rotation while new connections keep working;
 * `down` leaves no process and no listening port behind. Failed start-ups stop what they started.
 *
 * SHALE_CLUSTER_TEST_STORE=lmdb runs the SQL nodes on a shared LMDB directory instead of etcd.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunning } from '../../src/cli/cluster/processes.js';
import type { ClusterState } from '../../src/cli/cluster/state-file.js';
import { portIsFree } from '../../src/cli/cluster/wait.js';
import {
  allPids,
  clusterCleanup,
  clusterUp,
  connect,
  connectWithRetry,
  MISSING_CLUSTER_BINARIES as missing,
  pickPorts,
  shale,
  upArgs,
  type Ports,
  type Run,
} from '../helpers/cluster.js';
import { removeDir, tempDir } from '../helpers/node.js';

if (missing.length > 0) console.warn(`cluster-launcher tests skipped: ${missing.join(' and ')} not installed (scripts/system-deps.sh)`);

describe.skipIf(missing.length > 0)('shale cluster up/down', () => {
  const dir = join(tempDir('cluster'), 'c');
  let ports: Ports;
  let up: Run;
  let state: ClusterState;

  beforeAll(async () => {
    ({ ports, up, state } = await clusterUp(dir));
  }, 90_000);

  afterAll(() => clusterCleanup(dir), 60_000);

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
