import { beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';
import { isSqlError } from '../../../src/errors/index.js';

let db: Harness;

async function errorOf(p: Promise<unknown>): Promise<{ errno: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isSqlError(e)) return { errno: e.errno, message: e.message };
    throw e;
  }
  throw new Error('expected an error');
}

/** Every index entry matches a row and vice versa: compare index reads with table reads. */
async function checkIndexes(): Promise<void> {
  const all = await db.rows('SELECT id, a, b FROM t ORDER BY id');
  for (const row of all) {
    const [id, a, b] = row;
    if (a !== null && a !== undefined) expect(await db.rows("SELECT id FROM t WHERE a = ?", [a])).toEqual([[id]]);
    if (b !== null && b !== undefined) expect((await db.rows("SELECT id FROM t WHERE b = ?", [b])).map((r) => r[0])).toContain(id);
  }
  const viaB = await db.rows('SELECT id FROM t WHERE b >= -1000000 ORDER BY id');
  expect(viaB.length).toBe(all.filter((r) => r[2] !== null).length);
}

beforeEach(async () => {
  db = await Harness.create();
  await db.ddl('CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT, b INT, c VARCHAR(20) NOT NULL DEFAULT \'x\', UNIQUE KEY ua (a), KEY kb (b))');
});

describe('INSERT', () => {
  it('auto-increment ids are consecutive and LAST_INSERT_ID is the first', async () => {
    let r = await db.ok('INSERT INTO t (a, b) VALUES (1, 1), (2, 2), (3, 3)');
    expect([r.affectedRows, r.insertId, r.info]).toEqual([3n, 1n, 'Records: 3  Duplicates: 0  Warnings: 0']);
    r = await db.ok('INSERT INTO t (id, a) VALUES (10, 10)');
    expect(r.insertId).toBe(0n);
    expect(db.lastId).toBe(1n);
    r = await db.ok('INSERT INTO t (a) VALUES (11), (12)');
    expect(r.insertId).toBe(11n);
    expect(db.lastId).toBe(11n);
    expect(await db.rows('SELECT id, c FROM t WHERE a = 12')).toEqual([[12n, 'x']]);
    r = await db.ok('INSERT INTO t (id, a) VALUES (NULL, 20)');
    expect(r.insertId).toBe(13n);
  });

  it('duplicate keys', async () => {
    await db.ok('INSERT INTO t (id, a, b) VALUES (1, 1, 1)');
    expect(await errorOf(db.ok('INSERT INTO t (id, a) VALUES (1, 5)'))).toEqual({ errno: 1062, message: "Duplicate entry '1' for key 't.PRIMARY'" });
    expect(await errorOf(db.ok('INSERT INTO t (id, a) VALUES (2, 1)'))).toEqual({ errno: 1062, message: "Duplicate entry '1' for key 't.ua'" });
    expect(await errorOf(db.ok('INSERT INTO t (id, a) VALUES (3, 3), (4, 3)'))).toMatchObject({ errno: 1062 });
    expect(await db.rows('SELECT COUNT(*) FROM t')).toEqual([[1n]]);
    const r = await db.ok('INSERT IGNORE INTO t (id, a) VALUES (1, 7), (2, 8)');
    expect([r.affectedRows, r.info]).toEqual([1n, 'Records: 2  Duplicates: 1  Warnings: 1']);
    expect(db.lastCtx?.warnings[0]?.code).toBe(1062);
  });

  it('multi-row duplicate checks see earlier rows of the statement and of the transaction', async () => {
    await db.ok('INSERT INTO t (id, a) VALUES (1, 1)');
    expect(await errorOf(db.ok('INSERT INTO t (id, a) VALUES (5, 5), (6, 6), (5, 7)'))).toEqual({ errno: 1062, message: "Duplicate entry '5' for key 't.PRIMARY'" });
    expect(await errorOf(db.ok('INSERT INTO t (id, a) VALUES (5, 5), (6, 6), (7, 6)'))).toEqual({ errno: 1062, message: "Duplicate entry '6' for key 't.ua'" });
    expect(await db.rows('SELECT id FROM t ORDER BY id')).toEqual([[1n]]);
    let r = await db.ok('INSERT IGNORE INTO t (id, a) VALUES (2, 2), (2, 3), (3, 2), (1, 9), (4, NULL), (5, NULL)');
    expect([r.affectedRows, r.info]).toEqual([3n, 'Records: 6  Duplicates: 3  Warnings: 3']);
    expect(await db.rows('SELECT id, a FROM t ORDER BY id')).toEqual([[1n, 1n], [2n, 2n], [4n, null], [5n, null]]);
    await db.begin();
    await db.ok('INSERT INTO t (id, a) VALUES (10, 10)');
    r = await db.ok('INSERT IGNORE INTO t (a) VALUES (10), (11), (11)');
    expect([r.affectedRows, r.info]).toEqual([1n, 'Records: 3  Duplicates: 2  Warnings: 2']);
    await db.commit();
    expect(await db.rows('SELECT a FROM t WHERE id > 5 ORDER BY id')).toEqual([[10n], [11n]]);
    await checkIndexes();
  });

  it('REPLACE and ON DUPLICATE KEY UPDATE', async () => {
    await db.ok('INSERT INTO t (id, a, b) VALUES (1, 1, 1), (2, 2, 2)');
    let r = await db.ok('REPLACE INTO t (id, a, b) VALUES (1, 1, 5)');
    expect(r.affectedRows).toBe(2n);
    r = await db.ok('REPLACE INTO t (id, a, b) VALUES (3, 3, 3)');
    expect(r.affectedRows).toBe(1n);
    r = await db.ok('REPLACE INTO t (id, a, b) VALUES (1, 2, 9)'); // collides with row 1 (PK) and row 2 (ua)
    expect(r.affectedRows).toBe(3n);
    expect(await db.rows('SELECT id, a, b FROM t ORDER BY id')).toEqual([[1n, 2n, 9n], [3n, 3n, 3n]]);
    r = await db.ok('INSERT INTO t (id, a, b) VALUES (1, 0, 0) ON DUPLICATE KEY UPDATE b = b + VALUES(b) + 1');
    expect(r.affectedRows).toBe(2n);
    expect(await db.rows('SELECT b FROM t WHERE id = 1')).toEqual([[10n]]);
    r = await db.ok('INSERT INTO t (id, a, b) VALUES (1, 0, 0) ON DUPLICATE KEY UPDATE b = 10');
    expect(r.affectedRows).toBe(0n);
    db.foundRowsFlag = true;
    r = await db.ok('INSERT INTO t (id, a, b) VALUES (1, 0, 0) ON DUPLICATE KEY UPDATE b = 10');
    expect(r.affectedRows).toBe(1n);
    r = await db.ok('INSERT INTO t (id, a, b) VALUES (7, 7, 7) ON DUPLICATE KEY UPDATE b = 10');
    expect(r.affectedRows).toBe(1n);
    await checkIndexes();
  });

  it('NOT NULL and defaults', async () => {
    await db.ddl('CREATE TABLE n (id INT PRIMARY KEY, v INT NOT NULL, w INT NOT NULL DEFAULT 4)');
    expect(await errorOf(db.ok('INSERT INTO n (id, v) VALUES (1, NULL)'))).toEqual({ errno: 1048, message: "Column 'v' cannot be null" });
    expect(await errorOf(db.ok('INSERT INTO n (id) VALUES (1)'))).toEqual({ errno: 1364, message: "Field 'v' doesn't have a default value" });
    await db.ok('INSERT INTO n VALUES (1, 2, DEFAULT)');
    expect(await db.rows('SELECT * FROM n')).toEqual([[1n, 2n, 4n]]);
    expect(await errorOf(db.ok('INSERT INTO n (id, zz) VALUES (1, 1)'))).toEqual({ errno: 1054, message: "Unknown column 'zz' in 'field list'" });
  });

  it('tables without a primary key and INSERT ... SELECT', async () => {
    await db.ddl('CREATE TABLE h (x INT, y VARCHAR(10))');
    await db.ok("INSERT INTO h VALUES (1, 'a'), (1, 'a'), (2, NULL)");
    const r = await db.ok('INSERT INTO h SELECT x + 10, y FROM h WHERE x = 1');
    expect(r.affectedRows).toBe(2n);
    expect(await db.rows('SELECT x, y FROM h ORDER BY x, y')).toEqual([[1n, 'a'], [1n, 'a'], [2n, null], [11n, 'a'], [11n, 'a']]);
    expect((await db.ok('DELETE FROM h WHERE x = 1 LIMIT 1')).affectedRows).toBe(1n);
    expect(await db.rows('SELECT COUNT(*) FROM h WHERE x = 1')).toEqual([[1n]]);
  });
});

describe('UPDATE / DELETE', () => {
  beforeEach(async () => {
    await db.ok('INSERT INTO t (a, b) VALUES (1, 10), (2, 20), (3, 30), (4, 40), (5, NULL)');
  });

  it('matched and changed', async () => {
    let r = await db.ok('UPDATE t SET b = 20 WHERE id <= 3');
    expect([r.affectedRows, r.info]).toEqual([2n, 'Rows matched: 3  Changed: 2  Warnings: 0']);
    db.foundRowsFlag = true;
    r = await db.ok('UPDATE t SET b = 20 WHERE id <= 3');
    expect([r.affectedRows, r.info]).toEqual([3n, 'Rows matched: 3  Changed: 0  Warnings: 0']);
    await checkIndexes();
  });

  it('assignments see earlier ones, unique violations, PK changes', async () => {
    await db.ok('UPDATE t SET a = a + 100, b = a WHERE id = 1');
    expect(await db.rows('SELECT a, b FROM t WHERE id = 1')).toEqual([[101n, 101n]]);
    expect(await errorOf(db.ok('UPDATE t SET a = 2 WHERE id = 3'))).toEqual({ errno: 1062, message: "Duplicate entry '2' for key 't.ua'" });
    await db.ok('UPDATE t SET id = id + 10 WHERE id >= 4 ORDER BY id DESC');
    expect((await db.rows('SELECT id FROM t ORDER BY id')).map((x) => x[0])).toEqual([1n, 2n, 3n, 14n, 15n]);
    await checkIndexes();
  });

  it('DELETE with ORDER BY and LIMIT', async () => {
    const r = await db.ok('DELETE FROM t ORDER BY b DESC LIMIT 2');
    expect(r.affectedRows).toBe(2n);
    expect((await db.rows('SELECT id FROM t ORDER BY id')).map((x) => x[0])).toEqual([1n, 2n, 5n]);
    await checkIndexes();
    expect((await db.ok('DELETE FROM t WHERE b IS NULL')).affectedRows).toBe(1n);
    await checkIndexes();
  });
});
