/**
 * mysql2 through both protocols: every supported column type round-trips exactly
 * (BIGINT beyond 2^53, DECIMAL as exact strings, DATETIME, NULL, binary strings).
 */
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, removeDir, startTestNode, type TestNode } from '../helpers/node.js';

for (const backend of backends()) {
  describe(`on the ${backend} store`, () => {
    let node: TestNode;
    let conn: mysql.Connection;

    beforeAll(async () => {
      node = await startTestNode(backend);
      const admin = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
      await admin.query('CREATE DATABASE typesdb');
      await admin.end();
      conn = await mysql.createConnection({
        host: '127.0.0.1',
        port: node.port,
        user: 'root',
        database: 'typesdb',
        supportBigNumbers: true,
        bigNumberStrings: true,
        dateStrings: true,
      });
      await conn.query(`CREATE TABLE all_types (
        id BIGINT NOT NULL PRIMARY KEY,
        ti TINYINT, si SMALLINT UNSIGNED, mi MEDIUMINT, i INT, ub BIGINT UNSIGNED,
        dec1 DECIMAL(20,6), f FLOAT, d DOUBLE,
        ch CHAR(10), vc VARCHAR(100), tx TEXT,
        bn BINARY(4), vb VARBINARY(10), bl BLOB,
        dt DATE, dtm DATETIME(6), ts TIMESTAMP NULL, flag BOOLEAN
      )`);
    });

    afterAll(async () => {
      await conn?.end();
      await node?.stop();
      if (node) removeDir(node.dataDir);
    });

    const row = {
      id: '9007199254740993',
      ti: -7,
      si: 65535,
      mi: -8388608,
      i: 2147483647,
      ub: '18446744073709551615',
      dec1: '-12345678901234.123456',
      f: 1.5,
      d: 3.141592653589793,
      ch: 'abc',
      vc: 'héllo wörld',
      tx: 'x'.repeat(1000),
      bn: Buffer.from([1, 2, 0, 255]),
      vb: Buffer.from([0, 0xfe]),
      bl: Buffer.from('blob\0bytes'),
      dt: '2024-02-29',
      dtm: '2024-02-29 23:59:58.123456',
      ts: '1970-01-02 00:00:00',
      flag: 1,
    };

    function expectRow(got: Record<string, unknown>): void {
      expect(got).toEqual(row);
    }

    describe('mysql2 type round trip', () => {
      it('text protocol insert and select', async () => {
        await conn.query('INSERT INTO all_types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', Object.values(row));
        const [rows] = await conn.query('SELECT * FROM all_types WHERE id = 9007199254740993');
        expectRow((rows as Record<string, unknown>[])[0] as Record<string, unknown>);
      });

      it('prepared protocol select', async () => {
        const [rows] = await conn.execute('SELECT * FROM all_types WHERE id = ?', [row.id]);
        expectRow((rows as Record<string, unknown>[])[0] as Record<string, unknown>);
      });

      it('prepared protocol insert with typed params', async () => {
        const values = { ...row, id: '9007199254740995' };
        await conn.execute(
          'INSERT INTO all_types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [BigInt(values.id), ...Object.values(values).slice(1)],
        );
        const [rows] = await conn.execute('SELECT * FROM all_types WHERE id = ?', [BigInt(values.id)]);
        expect((rows as Record<string, unknown>[])[0]).toEqual(values);
      });

      it('NULLs in every nullable column', async () => {
        await conn.execute('INSERT INTO all_types (id) VALUES (?)', [1]);
        const [rows] = await conn.execute('SELECT ti, ub, dec1, f, vc, bl, dt, dtm, ts FROM all_types WHERE id = ?', [1]);
        expect(Object.values((rows as Record<string, unknown>[])[0] as object).every((v) => v === null)).toBe(true);
      });

      it('reports affected rows, insert ids and changed rows', async () => {
        await conn.query('CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT)');
        const [ins] = await conn.query('INSERT INTO ai (v) VALUES (1), (2), (3)');
        expect(ins).toMatchObject({ affectedRows: 3, insertId: 1 });
        const [upd] = await conn.query('UPDATE ai SET v = 2 WHERE id <= 2');
        // mysql2 sets CLIENT_FOUND_ROWS: affected = matched rows; changedRows parses the info text.
        expect(upd).toMatchObject({ affectedRows: 2, changedRows: 1 });
        const [del] = await conn.execute('DELETE FROM ai WHERE id = ?', [3]);
        expect(del).toMatchObject({ affectedRows: 1 });
      });

      it('surfaces MySQL error codes', async () => {
        await expect(conn.query('INSERT INTO all_types (id) VALUES (1)')).rejects.toMatchObject({
          errno: 1062,
          sqlState: '23000',
          code: 'ER_DUP_ENTRY',
        });
        await expect(conn.query('SELECT * FROM missing_table')).rejects.toMatchObject({ errno: 1146, sqlState: '42S02' });
        await expect(conn.query('SELEC 1')).rejects.toMatchObject({ errno: 1064, sqlState: '42000' });
      });

      it('types aliased select-list literals by their value (text protocol)', async () => {
      const [rows, fields] = await conn.query("SELECT 1 AS one, 1+1 AS two, 'a' AS s, 2.5 AS d");
      // LONGLONG, LONGLONG, VAR_STRING, NEWDECIMAL as MySQL (bigNumberStrings makes BIGINTs strings)
      expect(fields.map((f) => f.columnType)).toEqual([8, 8, 253, 246]);
      expect(rows).toEqual([{ one: '1', two: '2', s: 'a', d: '2.5' }]);
    });

    it('LIMIT ? with a DOUBLE parameter (mysql2 sends numbers as DOUBLE)', async () => {
        const [rows] = await conn.execute('SELECT id FROM all_types ORDER BY id LIMIT ?', [2]);
        expect((rows as unknown[]).length).toBe(2);
      });
    });
  });
}
