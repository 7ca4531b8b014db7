/**
 * Large literal-rows INSERTs over the text protocol (mysql2 `query`), which the server reads from
 * the packet's bytes without decoding the whole text (sql/parse/bulk-insert-bytes.ts): the rows,
 * multi-byte text cut across the decoder's 64 KiB windows, AUTO_INCREMENT ids, a duplicate key's
 * error, and the statements it leaves to the usual path (a function, a second statement).
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestNode, type TestNode } from '../helpers/node.js';

const ROWS = 3000;
/** Row i's text: multi-byte characters throughout, so window cuts land inside every kind of character. */
const text = (i: number): string => `${i}-ä€😀-${'ü'.repeat(i % 41)}-'q'`;
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;

describe('large INSERTs over the text protocol', () => {
  let node: TestNode;
  let c: mysql.Connection;

  beforeAll(async () => {
    node = await startTestNode('embedded');
    c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root', multipleStatements: true });
    await c.query('CREATE DATABASE bulk');
    await c.query('USE bulk');
    await c.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, s VARCHAR(100) NOT NULL, KEY k_1 (k))');
  });

  afterAll(async () => {
    await c?.end();
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('stores every row of a statement several windows long, with its AUTO_INCREMENT ids', async () => {
    const sql = `INSERT INTO t (k, s) VALUES ${Array.from({ length: ROWS }, (_, i) => `(${i % 10}, ${literal(text(i))})`).join(',\n')};`;
    expect(Buffer.byteLength(sql)).toBeGreaterThan(3 * 64 * 1024);
    const [res] = await c.query<mysql.ResultSetHeader>(sql);
    expect(res).toMatchObject({ affectedRows: ROWS, insertId: 1 });
    const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT id, k, s FROM t ORDER BY id');
    expect(rows).toHaveLength(ROWS);
    rows.forEach((r, i) => expect(r).toEqual({ id: i + 1, k: i % 10, s: text(i) }));
    const [byIndex] = await c.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM t WHERE k = 3');
    expect(byIndex[0]).toEqual({ n: ROWS / 10 });
  });

  it('fails a statement with a duplicate key as a whole, with MySQL error 1062', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => `(${100_000 + i}, 1, ${literal(text(i))})`);
    rows.push(`(7, 1, 'dup')`);
    const err = await c.query(`INSERT INTO t (id, k, s) VALUES ${rows.join(', ')}`).then(
      () => undefined,
      (e: { errno?: number; message: string }) => e,
    );
    expect(err).toMatchObject({ errno: 1062, message: "Duplicate entry '7' for key 't.PRIMARY'" });
    const [n] = await c.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM t');
    expect(n[0]).toEqual({ n: ROWS });
  });

  it('runs what it does not read from bytes the usual way: a function, a second statement', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => `(${200_000 + i}, 77, ${literal(text(i))})`).join(', ');
    const [withFn] = await c.query<mysql.ResultSetHeader>(`INSERT INTO t (id, k, s) VALUES ${many}, (300000, 77, CONCAT('a', 'b'))`);
    expect(withFn.affectedRows).toBe(1001);
    const [two] = await c.query<mysql.RowDataPacket[][]>(`INSERT INTO t (id, k, s) VALUES ${many.replace(/\(2(\d{5}),/g, '(4$1,')}; SELECT COUNT(*) AS n FROM t WHERE k = 77`);
    expect(two[1]).toEqual([{ n: 2001 }]);
    const [ab] = await c.query<mysql.RowDataPacket[]>('SELECT s FROM t WHERE id = 300000');
    expect(ab[0]).toEqual({ s: 'ab' });
  });
});
