/**
 * The status HTTP server of `shale serve` (built CLI): /health and /metrics of one node after
 * real statements and a write conflict, the same through the primary of `--workers 2` (metrics
 * summed over the workers, health needing every worker), and /health turning 503 when the
 * node's etcd store goes away.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/cli/cluster/processes.js';
import { startEtcd } from '../helpers/etcd.js';
import { sample } from '../helpers/metrics-text.js';
import { REPO_ROOT, removeDir, tempDir } from '../helpers/node.js';
import { getStatus, spawnOpsNode, type OpsNode } from '../helpers/ops-node.js';

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('one node', () => {
  const dataDir = tempDir('status');
  let node: OpsNode;

  beforeAll(async () => {
    node = await spawnOpsNode(['--data-dir', dataDir]);
  });
  afterAll(async () => {
    await node?.kill();
    removeDir(dataDir);
  });

  it('GET /health answers 200 {"status":"ok"}', async () => {
    const res = await fetch(node.url('/health'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET /metrics counts statements, transactions (with a conflict), KV latencies and connections', async () => {
    const a = await node.connect();
    await a.query('CREATE DATABASE m');
    await a.query('USE m');
    await a.query('CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)');
    await a.query('INSERT INTO t VALUES (1, 0), (2, 0)');
    for (let i = 0; i < 5; i++) await a.query('SELECT v FROM t WHERE id = ?', [1]);
    await expect(a.query('SELECT * FROM nosuch')).rejects.toThrow(/doesn't exist/);
    // A write conflict: both update row 1 in open transactions; the second COMMIT gets 1213.
    const b = await node.connect('m');
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query('UPDATE t SET v = v + 1 WHERE id = 1');
    await b.query('UPDATE t SET v = v + 10 WHERE id = 1');
    await a.query('COMMIT');
    await expect(b.query('COMMIT')).rejects.toMatchObject({ errno: 1213 });
    const res = await fetch(node.url('/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(sample(text, 'shale_connections')).toBe(2);
    expect(sample(text, 'shale_statements_total{kind="select",result="ok"}')).toBeGreaterThanOrEqual(5);
    expect(sample(text, 'shale_statements_total{kind="select",result="error"}')).toBe(1);
    expect(sample(text, 'shale_statements_total{kind="commit",result="conflict"}')).toBe(1);
    expect(sample(text, 'shale_statement_duration_seconds_count{kind="insert"}')).toBe(1);
    expect(sample(text, 'shale_transactions_total{outcome="conflicted"}')).toBe(1);
    expect(sample(text, 'shale_transactions_total{outcome="committed"}')).toBeGreaterThanOrEqual(7);
    expect(sample(text, 'shale_kv_read_seconds_count{op="snapshot"}')).toBeGreaterThanOrEqual(7);
    expect(sample(text, 'shale_kv_read_seconds_count{op="get"}')).toBeGreaterThanOrEqual(5);
    expect(sample(text, 'shale_kv_commit_seconds_count{result="ok"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'shale_kv_commit_seconds_count{result="conflict"}')).toBe(1);
    expect(sample(text, 'shale_schema_version')).toBeGreaterThan(0);
    expect(sample(text, 'shale_uptime_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    await a.end();
    await b.end();
    await waitFor('connections gauge to drop', async () => sample((await getStatus(node, '/metrics')).body, 'shale_connections') === 0);
  });

  it('--help of serve describes every operations flag', () => {
    const help = execFileSync(process.execPath, [join(REPO_ROOT, 'bin/shale.js'), 'serve', '--help'], { encoding: 'utf8' });
    for (const flag of ['--status-host', '--status-port', '--slow-query-ms', '--shutdown-timeout']) expect(help).toContain(flag);
    expect(help).toContain('/health');
    expect(help).toContain('(default: 10080)');
  });
});

describe('--workers 2', () => {
  const dataDir = tempDir('status-workers');
  let node: OpsNode;

  beforeAll(async () => {
    node = await spawnOpsNode(['--data-dir', dataDir, '--workers', '2']);
    await node.waitForLog((l) => l['event'] === 'listening' && l['port'] === node.port && l !== node.logs.find((x) => x['event'] === 'listening'));
  });
  afterAll(async () => {
    await node?.kill();
    removeDir(dataDir);
  });

  it('serves /health and /metrics from the primary, summed over the workers', async () => {
    await waitFor('health 200', async () => (await getStatus(node, '/health')).status === 200);
    const conns = [];
    for (let i = 0; i < 8; i++) conns.push(await node.connect());
    const workers = new Set(conns.map((c) => Math.floor(c.threadId / 100_000_000)));
    for (const c of conns) await c.query('SELECT 1');
    const text = (await getStatus(node, '/metrics')).body;
    expect(sample(text, 'shale_connections')).toBe(8);
    expect(sample(text, 'shale_statements_total{kind="select",result="ok"}')).toBeGreaterThanOrEqual(8);
    // prom-client's process metrics of the workers come through too.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(workers.size).toBe(2); // node:cluster hands connections out round-robin
    for (const c of conns) await c.end();
  });

  const pgrep = findExecutable('pgrep');
  it.skipIf(pgrep === undefined)('answers 503 while a worker is missing, 200 once it was restarted', async () => {
    const pids = execFileSync(pgrep!, ['-P', String(node.child.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
    expect(pids.length).toBe(2);
    process.kill(pids[0]!, 'SIGKILL');
    const seen: string[] = [];
    await waitFor('health 503', async () => {
      // A refused or reset request counts as "not yet" (it is recorded); the primary itself must
      // stay up, which the exit-code check below proves.
      const h = await getStatus(node, '/health').catch((err: unknown) => ({ status: 0, body: String(err) }));
      seen.push(`${h.status} ${h.body}`);
      return h.status === 503;
    }, 5_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; saw ${seen.join(', ')}`);
    });
    await waitFor('health 200 after the restart', async () => (await getStatus(node, '/health')).status === 200);
    expect(node.child.exitCode).toBeNull();
  });
});

const etcdMissing = findExecutable('etcd') === undefined;

describe.skipIf(etcdMissing)('on etcd', () => {
  it('answers 503 once the store stops answering, 200 again when it is back', async () => {
    const etcd = await startEtcd(1);
    const node = await spawnOpsNode(['--store', etcd.url()]);
    try {
      expect((await getStatus(node, '/health')).status).toBe(200);
      await etcd.members[0]!.kill();
      await waitFor('health 503', async () => {
        const h = await getStatus(node, '/health');
        return h.status === 503 && JSON.parse(h.body).status === 'unavailable';
      }, 15_000);
      await etcd.members[0]!.restart();
      await waitFor('health 200 again', async () => (await getStatus(node, '/health')).status === 200, 30_000);
    } finally {
      await node.kill();
      await etcd.stop();
    }
  }, 60_000);
});
