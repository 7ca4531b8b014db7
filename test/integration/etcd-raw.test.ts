/**
 * Smoke test of sysbench/etcd-raw.ts (raw etcd Range / 4-key Txn throughput): runs the script
 * with tsx against a fresh 1-member etcd for one second per operation and checks that both
 * operations completed requests and that the script deleted its keys.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdConnection } from '../../src/kv/etcd/connection.js';
import type { RawResult } from '../../sysbench/etcd-raw.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
let etcd: EtcdCluster;

beforeAll(async () => {
  etcd = await startEtcd(1);
});

afterAll(async () => {
  await etcd?.stop();
});

describe('sysbench/etcd-raw.ts', () => {
  it('reports Range and Txn throughput and cleans up its keys', async () => {
    const args = ['sysbench/etcd-raw.ts', '--endpoints', etcd.endpoints.join(','), '--concurrency', '2', '--duration', '1', '--keys', '100', '--json'];
    const { stdout } = await run(resolve(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, timeout: 20_000 });
    // The boundary: the script prints one RawResult as JSON.
    const res = JSON.parse(stdout) as RawResult;
    expect(res.leaderFound).toBe(true);
    expect(res.range.opsPerSec).toBeGreaterThan(0);
    expect(res.range.errors).toBe(0);
    expect(res.range.p99Ms).toBeGreaterThanOrEqual(res.range.p50Ms);
    expect(res.txn.opsPerSec).toBeGreaterThan(0);
    expect(res.txn.committed).toBeGreaterThan(0);
    expect(res.txn.committed + res.txn.conflicts).toBe(res.txn.ops);

    const conn = new EtcdConnection(etcd.endpoints);
    try {
      const left = await conn.call('Range', { key: new TextEncoder().encode('etcd-raw/'), range_end: new TextEncoder().encode('etcd-raw0'), count_only: true }, { retry: 'idempotent' });
      expect(left.count).toBe('0');
    } finally {
      conn.close();
    }
  }, 30_000);
});
