/**
 * The scale-out topology under load and faults, all real processes on 127.0.0.1 started by
 * `shale cluster up`: 3 etcd members, 2 SQL nodes, HAProxy. sysbench's eight OLTP workloads run
 * clean through HAProxy; then `shale check bank` runs through HAProxy while the etcd leader is
 * SIGKILLed, and still passes (money conserved, no acknowledged transfer lost, none doubled),
 * and the service keeps answering.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterState } from '../../src/cli/cluster/state-file.js';
import {
  clusterCleanup,
  clusterUp,
  connect,
  connectWithRetry,
  MISSING_CLUSTER_BINARIES as missing,
  shaleCli,
  type Ports,
} from '../helpers/cluster.js';
import { tempDir } from '../helpers/node.js';
import { sysbench, transactionsOf, WORKLOADS } from '../helpers/sysbench.js';

if (missing.length > 0) console.warn(`cluster fault tests skipped: ${missing.join(' and ')} not installed (scripts/system-deps.sh)`);

/** The member etcd reports as leader (via its JSON gateway). */
async function leaderIndex(state: ClusterState): Promise<number> {
  for (const m of state.etcd) {
    try {
      const res = await fetch(`http://127.0.0.1:${m.clientPort}/v3/maintenance/status`, { method: 'POST', body: '{}' });
      const body = (await res.json()) as { header?: { member_id?: string }; leader?: string };
      if (body.leader === undefined) continue;
      for (const [i, other] of state.etcd.entries()) {
        const r = await fetch(`http://127.0.0.1:${other.clientPort}/v3/maintenance/status`, { method: 'POST', body: '{}' });
        const b = (await r.json()) as { header?: { member_id?: string } };
        if (b.header?.member_id === body.leader) return i;
      }
    } catch {
      // member down: ask the next
    }
  }
  throw new Error('no etcd leader found');
}

describe.skipIf(missing.length > 0)('cluster through HAProxy under load and faults', () => {
  const dir = join(tempDir('cluster-faults'), 'c');
  let ports: Ports;
  let state: ClusterState;

  beforeAll(async () => {
    ({ ports, state } = await clusterUp(dir));
  }, 90_000);

  afterAll(() => clusterCleanup(dir), 60_000);

  it('runs the eight sysbench OLTP workloads at 8 threads through HAProxy', async () => {
    const target = { port: ports.haproxy, tables: 2, tableSize: 1000 };
    const admin = await connect(ports.haproxy);
    await admin.query('CREATE DATABASE sbtest');
    await admin.end();
    await sysbench(target, 'oltp_common', 'prepare');
    for (const workload of WORKLOADS) {
      const { stdout } = await sysbench(target, workload, 'run', ['--threads=8', '--time=2', '--report-interval=0']);
      expect(transactionsOf(stdout), `${workload}\n${stdout}`).toBeGreaterThan(0);
      expect(stdout).not.toMatch(/FATAL/);
    }
    await sysbench(target, 'oltp_common', 'cleanup');
  }, 180_000);

  it('passes the bank check while the etcd leader is killed, and keeps serving', async () => {
    const url = `mysql://root:@127.0.0.1:${ports.haproxy}/bankcheck`;
    const check = shaleCli(['check', 'bank', '--url', url, '--accounts', '20', '--clients', '8', '--duration', '12', '--json'], 120_000);
    await new Promise((r) => setTimeout(r, 4_000));
    const leader = await leaderIndex(state);
    process.kill(state.etcd[leader]!.pid, 'SIGKILL');
    const run = await check;
    const result = JSON.parse(run.stdout) as { status: string; counts: { acknowledged: number } };
    expect(result.status, run.stdout + run.stderr).toBe('PASS');
    expect(run.code).toBe(0);
    expect(result.counts.acknowledged).toBeGreaterThan(0);

    const after = await connectWithRetry(ports.haproxy, 'bankcheck');
    const [rows] = await after.query('SELECT COUNT(*) AS n, SUM(balance) AS total FROM bank_accounts');
    expect(rows).toEqual([{ n: 20, total: '20000' }]);
    await after.query('UPDATE bank_accounts SET balance = balance + 0 WHERE id = 1');
    await after.end();
  }, 150_000);
});
