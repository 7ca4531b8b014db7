/**
 * SIGTERM of `shale serve` (built CLI): a statement running when the signal arrives still
 * returns its result if it finishes within --shutdown-timeout, an open transaction is rolled
 * back (its row is gone after a restart), every phase is logged and the process exits 0. A
 * statement outliving the deadline has its connection cut, and the node still stops.
 */
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/node.js';
import { spawnOpsNode, type LogLine, type OpsNode } from '../helpers/ops-node.js';

const ROWS = 30_000;
/**
 * About 12 million row pairs in a nested-loop join: a second or more, during which the executor
 * yields the event loop between batches (so the signal is handled while it runs).
 */
// A nested-loop join (no equality for a hash join): each of the 400 outer rows scans big again.
const SLOW = 'SELECT COUNT(*) AS n FROM big a JOIN big b ON a.id <= b.id AND b.id <= a.id WHERE a.id < 400';
const SLOW_ROWS = [{ n: 400 }];

const dataDir = tempDir('shutdown');
let node: OpsNode | undefined;

function quiet(c: mysql.Connection): mysql.Connection {
  c.on('error', () => undefined); // the server closing the socket is expected here
  return c;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function timeOf(l: LogLine | undefined): number {
  return typeof l?.['time'] === 'number' ? l['time'] : NaN;
}

function eventIndex(logs: readonly LogLine[], event: string): number {
  return logs.findIndex((l) => l['event'] === event);
}

beforeAll(async () => {
  node = await spawnOpsNode(['--data-dir', dataDir]);
  const c = await node.connect();
  await c.query('CREATE DATABASE sd');
  await c.query('USE sd');
  await c.query('CREATE TABLE big (id INT PRIMARY KEY, pad VARCHAR(100) NOT NULL)');
  await c.query('CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))');
  const pad = 'x'.repeat(90);
  for (let b = 0; b < ROWS / 1000; b++) {
    const values = Array.from({ length: 1000 }, (_, i) => `(${b * 1000 + i}, '${pad}')`).join(', ');
    await c.query(`INSERT INTO big VALUES ${values}`);
  }
  await c.end();
  node.child.kill('SIGTERM');
  expect(await node.exited()).toBe(0);
}, 120_000);

afterAll(async () => {
  await node?.kill();
  removeDir(dataDir);
});

describe('SIGTERM', () => {
  it('lets a running statement finish, rolls back open transactions, logs each phase', async () => {
    node = await spawnOpsNode(['--data-dir', dataDir, '--slow-query-ms', '50', '--shutdown-timeout', '60']);
    const open = quiet(await node.connect('sd'));
    await open.query('BEGIN');
    await open.query("INSERT INTO t VALUES (1, 'uncommitted')");
    const busy = quiet(await node.connect('sd'));
    const started = Date.now();
    await busy.query(SLOW);
    const took = Date.now() - started;
    expect(took).toBeGreaterThan(300);

    const running = busy.query(SLOW);
    await sleep(100);
    node.child.kill('SIGTERM');
    const [rows] = await running;
    expect(rows).toEqual(SLOW_ROWS);
    expect(await node.exited()).toBe(0);
    await expect(open.query('SELECT 1')).rejects.toThrow();

    const logs = node.logs;
    const phases = ['signal', 'shutdown-drain', 'shutdown-connections-closed', 'engine-closed', 'store-closed', 'stopped'];
    const at = phases.map((p) => eventIndex(logs, p));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(logs[at[2]!]).toMatchObject({ connections: 2, cut: 0, stuck: 0 });
    // The statement was running when the signal came: it started before and ended after it.
    const signalAt = timeOf(logs[at[0]!]);
    const slow = logs.filter((l) => l['event'] === 'slow-query' && l['kind'] === 'select');
    const last = slow[slow.length - 1];
    expect(timeOf(last)).toBeGreaterThanOrEqual(signalAt);
    expect(timeOf(last) - (last?.['ms'] as number)).toBeLessThanOrEqual(signalAt);

    node = await spawnOpsNode(['--data-dir', dataDir]);
    const check = await node.connect('sd');
    const [left] = await check.query('SELECT COUNT(*) AS n FROM t');
    expect(left).toEqual([{ n: 0 }]);
    await check.end();
    node.child.kill('SIGTERM');
    expect(await node.exited()).toBe(0);
  });

  it('cuts a connection whose statement outlives --shutdown-timeout, and still stops', async () => {
    node = await spawnOpsNode(['--data-dir', dataDir, '--shutdown-timeout', '0.01']);
    const busy = quiet(await node.connect('sd'));
    const started = Date.now();
    await busy.query(SLOW);
    expect(Date.now() - started).toBeGreaterThan(300);
    const running = busy.query(SLOW).then(
      () => 'finished',
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    await sleep(100);
    node.child.kill('SIGTERM');
    expect(await running).toMatch(/closed|lost/i);
    expect(await node.exited()).toBe(0);
    const closed = node.logs.find((l) => l['event'] === 'shutdown-connections-closed');
    expect(closed).toMatchObject({ connections: 1, cut: 1, level: 40 });
  });
});
