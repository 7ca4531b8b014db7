/**
 * Two stateless SQL nodes on one 3-member etcd cluster (all real processes on 127.0.0.1):
 * DDL on one node is visible on the other at its next transaction, a transaction begun under an
 * old schema cannot commit rows written with it, conflicting increments through both nodes
 * lose nothing, and AUTO_INCREMENT ids never collide across nodes.
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { spawnNode, tempDir, removeDir, type SpawnedNode } from '../helpers/node.js';

let cluster: EtcdCluster;
let nodeA: SpawnedNode;
let nodeB: SpawnedNode;
const scratch = tempDir('etcd-nodes');

beforeAll(async () => {
  cluster = await startEtcd(3);
  const store = cluster.url();
  [nodeA, nodeB] = await Promise.all([spawnNode(scratch, ['--store', store]), spawnNode(scratch, ['--store', store])]);
});

afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
  await cluster?.stop();
  removeDir(scratch);
});

function connect(node: SpawnedNode, database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', ...(database ? { database } : {}) });
}

async function errnoOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { errno?: number }).errno;
  }
}

describe('SQL nodes sharing an etcd cluster', () => {
  it('sees DDL from the other node at once and refuses commits under a stale schema', async () => {
    const a = await connect(nodeA);
    const b = await connect(nodeB);
    try {
      await a.query('CREATE DATABASE shared');
      await a.query('CREATE TABLE shared.t (id INT PRIMARY KEY, v INT)');
      await b.query('INSERT INTO shared.t VALUES (1, 10)');
      const [rows] = await a.query('SELECT id, v FROM shared.t');
      expect(rows).toEqual([{ id: 1, v: 10 }]);

      await b.query('BEGIN');
      await b.query('INSERT INTO shared.t VALUES (2, 20)'); // written without index iv
      await a.query('CREATE INDEX iv ON shared.t (v)');
      expect(await errnoOf(b.query('COMMIT'))).toBe(1213);
      await b.query('INSERT INTO shared.t VALUES (2, 20)'); // the retry maintains iv
      const [plan] = await a.query('EXPLAIN SELECT id FROM shared.t WHERE v = 20');
      expect(JSON.stringify(plan)).toMatch(/index:iv/);
      const [viaIndex] = await a.query('SELECT id FROM shared.t WHERE v = 20');
      expect(viaIndex).toEqual([{ id: 2 }]);
      const [tables] = await b.query('SHOW INDEX FROM shared.t');
      expect((tables as Array<{ Key_name: string }>).map((r) => r.Key_name)).toContain('iv');

      await a.query('DROP TABLE shared.t');
      expect(await errnoOf(b.query('SELECT * FROM shared.t'))).toBe(1146);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('keeps every acknowledged increment made through both nodes', async () => {
    const admin = await connect(nodeA);
    await admin.query('CREATE DATABASE IF NOT EXISTS shared');
    await admin.query('CREATE TABLE shared.counter (id INT PRIMARY KEY, n INT NOT NULL)');
    await admin.query('INSERT INTO shared.counter VALUES (1, 0)');
    const perClient = 15;
    let acknowledged = 0;
    const clients = [nodeA, nodeB, nodeA, nodeB, nodeA, nodeB].map(async (node, i) => {
      const c = await connect(node, 'shared');
      try {
        for (let k = 0; k < perClient; k++) {
          if (i % 2 === 0) {
            // autocommit: the node retries conflicts itself
            await c.query('UPDATE counter SET n = n + 1 WHERE id = 1');
            acknowledged++;
            continue;
          }
          for (;;) {
            await c.query('BEGIN');
            await c.query('SELECT n FROM counter WHERE id = 1 FOR UPDATE');
            await c.query('UPDATE counter SET n = n + 1 WHERE id = 1');
            const errno = await errnoOf(c.query('COMMIT'));
            if (errno === undefined) break;
            expect(errno).toBe(1213);
          }
          acknowledged++;
        }
      } finally {
        await c.end();
      }
    });
    await Promise.all(clients);
    const [rows] = await admin.query('SELECT n FROM shared.counter WHERE id = 1');
    expect(rows).toEqual([{ n: acknowledged }]);
    expect(acknowledged).toBe(6 * perClient);
    await admin.end();
  });

  it('hands out AUTO_INCREMENT ids that never collide across nodes', async () => {
    const admin = await connect(nodeB);
    await admin.query('CREATE DATABASE IF NOT EXISTS shared');
    await admin.query('CREATE TABLE shared.items (id BIGINT AUTO_INCREMENT PRIMARY KEY, node CHAR(1))');
    const ids: number[] = [];
    await Promise.all(
      [nodeA, nodeB].map(async (node, i) => {
        const c = await connect(node, 'shared');
        try {
          for (let k = 0; k < 20; k++) {
            const [res] = await c.query('INSERT INTO items (node) VALUES (?), (?)', [String(i), String(i)]);
            const first = (res as { insertId: number }).insertId;
            ids.push(first, first + 1); // consecutive within one statement
          }
        } finally {
          await c.end();
        }
      }),
    );
    const [rows] = await admin.query('SELECT id FROM shared.items ORDER BY id');
    const stored = (rows as Array<{ id: number }>).map((r) => r.id);
    expect(stored.length).toBe(80);
    expect(new Set(stored).size).toBe(80);
    expect([...ids].sort((x, y) => x - y)).toEqual(stored);
    await admin.end();
  });
});
