/**
 * Large result sets are streamed: rows go to the client while the statement runs (bounded
 * memory), through the text and the binary protocol, inside multi-statement queries, and an error
 * after rows were sent (here max_execution_time) arrives as an ERR after them, leaving the
 * connection usable.
 */
import mysql from 'mysql2';
import mysqlp from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestNode, type TestNode } from '../helpers/node.js';

const ROWS = 20_000; // more than STREAM_AFTER_ROWS (8192) in sql/exec/select.ts
let node: TestNode;
let conn: mysqlp.Connection;

beforeAll(async () => {
  node = await startTestNode();
  conn = await mysqlp.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', multipleStatements: true });
  await conn.query('CREATE DATABASE st');
  await conn.query('USE st');
  await conn.query('CREATE TABLE t (id INT PRIMARY KEY, pad VARCHAR(100) NOT NULL)');
  for (let base = 0; base < ROWS; base += 1000) {
    const values = Array.from({ length: 1000 }, (_, i) => `(${base + i + 1}, '${'x'.repeat(60)}${base + i + 1}')`);
    await conn.query(`INSERT INTO t VALUES ${values.join(',')}`);
  }
}, 120_000);

afterAll(async () => {
  await conn?.end();
  await node?.stop();
  if (node) removeDir(node.dataDir);
});

function checkRows(rows: unknown): void {
  const list = rows as Array<{ id: number; pad: string }>;
  expect(list.length).toBe(ROWS);
  for (let i = 0; i < list.length; i += 997) {
    expect(list[i]?.id).toBe(i + 1);
    expect(list[i]?.pad).toBe(`${'x'.repeat(60)}${i + 1}`);
  }
  expect(list[ROWS - 1]?.id).toBe(ROWS);
}

describe('streamed result sets', () => {
  it('returns every row through the text protocol', async () => {
    const [rows] = await conn.query('SELECT id, pad FROM t');
    checkRows(rows);
  });

  it('returns every row through the binary protocol', async () => {
    const [rows] = await conn.execute('SELECT id, pad FROM t WHERE id > ?', [0]);
    checkRows(rows);
  });

  it('streams inside a multi-statement query', async () => {
    const [results] = await conn.query('SELECT id, pad FROM t; SELECT COUNT(*) AS n FROM t');
    const sets = results as unknown[];
    checkRows(sets[0]);
    expect(sets[1]).toEqual([{ n: ROWS }]);
  });

  for (const protocol of ['text', 'binary'] as const) {
    it(`sends rows before the statement ends, then the error after them (${protocol})`, async () => {
      const raw = mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', database: 'st' });
      try {
        const sql = 'SELECT /*+ MAX_EXECUTION_TIME(1500) */ a.id, b.id AS bid FROM t a, t b';
        const outcome = await new Promise<{ rows: number; errno: number | undefined }>((resolve) => {
          let rows = 0;
          let errno: number | undefined;
          (protocol === 'text' ? raw.query(sql) : raw.execute(sql))
            .on('result', () => {
              rows++;
            })
            .on('error', (err: { errno?: number }) => {
              errno = err.errno;
            })
            .on('end', () => resolve({ rows, errno }));
        });
        expect(outcome.errno).toBe(3024);
        expect(outcome.rows).toBeGreaterThan(8192); // without streaming no row would arrive before the error
        const after = await new Promise<unknown>((resolve, reject) =>
          raw.query('SELECT COUNT(*) AS n FROM t', (err, res) => (err ? reject(err) : resolve(res))),
        );
        expect(after).toEqual([{ n: ROWS }]);
      } finally {
        raw.end();
      }
    }, 60_000);
  }
});
