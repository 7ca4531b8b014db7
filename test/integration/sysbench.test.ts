/**
 * sysbench 1.0.20 smoke test: prepare small tables, run each of the eight OLTP workloads for a few
 * seconds, clean up. Asserts a clean exit (no fatal error) and non-zero throughput.
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestNode, type TestNode } from '../helpers/node.js';
import { sysbench as runSysbench, transactionsOf, WORKLOADS } from '../helpers/sysbench.js';

let node: TestNode;

function sysbench(workload: string, command: string, extra: string[] = []): Promise<{ stdout: string }> {
  return runSysbench({ port: node.port, tables: 2, tableSize: 2000 }, workload, command, extra);
}

beforeAll(async () => {
  node = await startTestNode();
  const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
  await c.query('CREATE DATABASE sbtest');
  await c.end();
});

afterAll(async () => {
  await node?.stop();
  if (node) removeDir(node.dataDir);
});

describe('sysbench', () => {
  it('prepare creates and fills the tables', async () => {
    await sysbench('oltp_common', 'prepare');
    const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', database: 'sbtest' });
    const [rows] = await c.query('SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM sbtest1');
    await c.end();
    expect((rows as Array<Record<string, unknown>>)[0]).toEqual({ n: 2000, lo: 1, hi: 2000 });
  }, 120_000);

  for (const workload of WORKLOADS) {
    it(`${workload} runs without fatal errors`, async () => {
      const { stdout } = await sysbench(workload, 'run', ['--threads=4', '--time=3', '--report-interval=0']);
      expect(transactionsOf(stdout), stdout).toBeGreaterThan(0);
      expect(stdout).not.toMatch(/FATAL/);
    }, 60_000);
  }

  it('cleanup drops the tables', async () => {
    await sysbench('oltp_common', 'cleanup');
    const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', database: 'sbtest' });
    const [rows] = await c.query('SHOW TABLES');
    await c.end();
    expect(rows).toEqual([]);
  }, 60_000);
});
