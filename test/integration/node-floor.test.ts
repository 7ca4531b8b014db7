/**
 * Smoke test of sysbench/node-floor.ts (the protocol stub that measures what Node.js alone costs
 * per point select): a real client prepares and executes through it, and sysbench's point
 * select runs against it without errors.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROW_VALUE, serveStub } from '../../sysbench/node-floor.js';
import { sysbench, transactionsOf } from '../helpers/sysbench.js';

let server: Server;
let port = 0;

beforeAll(async () => {
  let ids = 0;
  server = createServer((socket) => serveStub(socket, ++ids));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('sysbench/node-floor.ts', () => {
  it('answers a prepared point select from mysql2 with its one precomputed row', async () => {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    try {
      for (const id of [1, 2]) {
        const [rows] = await conn.execute('SELECT c FROM sbtest1 WHERE id=?', [id]);
        expect(rows).toEqual([{ c: ROW_VALUE }]);
      }
    } finally {
      conn.destroy();
    }
  });

  it('serves sysbench oltp_point_select without errors', async () => {
    const { stdout } = await sysbench({ port, tables: 1, tableSize: 100 }, 'oltp_point_select', 'run', ['--threads=2', '--time=1']);
    expect(transactionsOf(stdout)).toBeGreaterThan(0);
    expect(stdout).toMatch(/ignored errors:\s+0 /);
  }, 30_000);
});
