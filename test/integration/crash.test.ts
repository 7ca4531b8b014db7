/**
 * Durability: writers commit over several connections and record every acknowledged commit; the
 * server process is killed with SIGKILL mid-load and restarted on the same data directory. Every
 * acknowledged commit must be there, and no statement or transaction may be partially applied.
 */
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, spawnNode, tempDir, type SpawnedNode } from '../helpers/node.js';

const dataDir = tempDir('crash');
let server: SpawnedNode | undefined;

afterAll(async () => {
  await server?.kill();
  removeDir(dataDir);
});

async function connect(port: number): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port, user: 'root', database: 'crashdb' });
}

interface Acked {
  batches: number[];
  transfers: number;
}

/** Inserts 3-row batches (autocommit) and does balanced transfers (explicit txns) until stopped. */
async function writer(port: number, id: number, account: number, acked: Acked, stop: { now: boolean }): Promise<void> {
  const c = await connect(port).catch(() => undefined);
  if (!c) return;
  c.on('error', () => undefined);
  for (let n = 0; !stop.now; n++) {
    const batch = id * 1_000_000 + n;
    try {
      await c.query('INSERT INTO rows3 (batch, part) VALUES (?, 1), (?, 2), (?, 3)', [batch, batch, batch]);
      acked.batches.push(batch);
      await c.query('BEGIN');
      await c.query('UPDATE acct SET bal = bal - 1 WHERE id = ?', [account]);
      await c.query('UPDATE acct SET bal = bal + 1 WHERE id = ?', [(account + 1) % 4]);
      await c.query('COMMIT');
      acked.transfers++;
    } catch (err) {
      // A lost connection (the server was killed) ends this writer.
      if (stop.now || (err as { fatal?: boolean }).fatal) break;
      await c.query('ROLLBACK').catch(() => undefined);
    }
  }
  c.destroy();
}

describe('crash recovery', () => {
  it('keeps every acknowledged commit across kill -9, repeatedly', async () => {
    server = await spawnNode(dataDir);
    const setup = await mysql.createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await setup.query('CREATE DATABASE crashdb');
    await setup.query('CREATE TABLE crashdb.rows3 (id INT AUTO_INCREMENT PRIMARY KEY, batch INT NOT NULL, part INT NOT NULL, KEY b (batch))');
    await setup.query('CREATE TABLE crashdb.acct (id INT PRIMARY KEY, bal INT NOT NULL)');
    await setup.query('INSERT INTO crashdb.acct VALUES (0, 1000), (1, 1000), (2, 1000), (3, 1000)');
    await setup.end();

    const acked: Acked = { batches: [], transfers: 0 };
    for (let cycle = 0; cycle < 3; cycle++) {
      const stop = { now: false };
      const writers = [0, 1, 2, 3].map((w) => writer(server!.port, w + cycle * 10, w, acked, stop));
      await new Promise((r) => setTimeout(r, 1500));
      await server.kill();
      stop.now = true;
      await Promise.all(writers);
      server = await spawnNode(dataDir);
    }

    const c = await connect(server.port);
    const [groups] = await c.query('SELECT batch, COUNT(*) AS n FROM rows3 GROUP BY batch');
    const counts = new Map((groups as Array<{ batch: number; n: number }>).map((g) => [g.batch, g.n]));
    for (const batch of acked.batches) expect(counts.get(batch), `batch ${batch}`).toBe(3);
    for (const n of counts.values()) expect(n).toBe(3);
    const [sum] = await c.query('SELECT SUM(bal) AS total FROM acct');
    expect(Number((sum as Array<{ total: string }>)[0]?.total)).toBe(4000);
    await c.end();
    expect(acked.batches.length).toBeGreaterThan(10);
  }, 120_000);
});
