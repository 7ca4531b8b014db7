import { beforeEach, describe, expect, it } from 'vitest';
import { Harness, SBTEST } from './harness.js';

let db: Harness;

beforeEach(async () => {
  db = await Harness.create();
  await db.ddl(SBTEST);
  const values = Array.from({ length: 20 }, (_, i) => `(${(i * 7) % 10}, 'c${String(i + 1).padStart(2, '0')}', 'p')`).join(',');
  const r = await db.ok(`INSERT INTO sbtest1(k, c, pad) VALUES ${values}`);
  expect(r.affectedRows).toBe(20n);
  expect(r.insertId).toBe(1n);
  expect(r.info).toBe('Records: 20  Duplicates: 0  Warnings: 0');
  await db.ddl('CREATE INDEX k_1 ON sbtest1(k)');
});

describe('sysbench statements', () => {
  it('point select', async () => {
    expect(await db.rows('SELECT c FROM sbtest1 WHERE id=?', [5n])).toEqual([['c05']]);
    expect(await db.rows('SELECT c FROM sbtest1 WHERE id=?', [99n])).toEqual([]);
    expect(await db.rows('SELECT c FROM sbtest1 WHERE id=?', ['5'])).toEqual([['c05']]);
    expect(await db.rows('SELECT c FROM sbtest1 WHERE id=?', [5.5])).toEqual([]);
    expect(await db.rows('SELECT c FROM sbtest1 WHERE id=?', [null])).toEqual([]);
    const before = db.store.gets;
    await db.rows('SELECT c FROM sbtest1 WHERE id=?', [7n]);
    expect(db.store.gets - before).toBe(1); // the point get only (the schema version was read at this startTs already)
  });

  it('ranges', async () => {
    expect((await db.rows('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?', [3n, 6n])).map((r) => r[0])).toEqual(['c03', 'c04', 'c05', 'c06']);
    const s = await db.rows('SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?', [1n, 4n]);
    expect(String(s[0]?.[0])).toBe(String(0 + 7 + 4 + 1));
    expect(await db.rows('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c DESC', [1n, 3n])).toEqual([['c03'], ['c02'], ['c01']]);
    const d = await db.rows('SELECT DISTINCT k FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY k', [1n, 20n]);
    expect(d.map((r) => r[0])).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
  });

  it('writes', async () => {
    let r = await db.ok('UPDATE sbtest1 SET k=k+1 WHERE id=?', [2n]);
    expect(r.affectedRows).toBe(1n);
    expect(r.info).toBe('Rows matched: 1  Changed: 1  Warnings: 0');
    expect(await db.rows('SELECT k FROM sbtest1 WHERE id=2')).toEqual([[8n]]);
    expect(await db.rows('SELECT id FROM sbtest1 WHERE k=8')).toEqual([[2n], [5n], [15n]]);
    expect(await db.rows('SELECT id FROM sbtest1 WHERE k=7')).toEqual([[12n]]);
    r = await db.ok('UPDATE sbtest1 SET c=? WHERE id=?', ['new', 3n]);
    expect(r.affectedRows).toBe(1n);
    r = await db.ok('DELETE FROM sbtest1 WHERE id=?', [4n]);
    expect(r.affectedRows).toBe(1n);
    r = await db.ok('DELETE FROM sbtest1 WHERE id=?', [4n]);
    expect(r.affectedRows).toBe(0n);
    r = await db.ok('INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)', [4n, 5n, 'x', 'y']);
    expect(r.affectedRows).toBe(1n);
    expect(r.insertId).toBe(0n);
    r = await db.ok("INSERT INTO sbtest1 (id, k, c, pad) VALUES (0, 1, 'a', 'b')");
    expect(r.insertId).toBe(21n);
    expect(db.lastId).toBe(21n);
  });

  it('explain', async () => {
    expect(await db.explain('SELECT c FROM sbtest1 WHERE id=?')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 1.00 | root |  | test.sbtest1.c",
        "└─Point_Get_2 | 1.00 | root | table:sbtest1 | handle:?",
      ]
    `);
    expect(await db.explain('SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 250.00 | root |  | test.sbtest1.c",
        "└─Sort_2 | 250.00 | root |  | test.sbtest1.c",
        "  └─TableReader_3 | 250.00 | root |  | data:TableRangeScan_4",
        "    └─TableRangeScan_4 | 250.00 | cop[tikv] | table:sbtest1 | range:[?,?], keep order:false",
      ]
    `);
    expect(await db.explain('SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 1 AND 10')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 1.00 | root |  | Column#a0",
        "└─HashAgg_2 | 1.00 | root |  | funcs:sum(test.sbtest1.k)->Column#a0",
        "  └─TableReader_3 | 250.00 | root |  | data:TableRangeScan_4",
        "    └─TableRangeScan_4 | 250.00 | cop[tikv] | table:sbtest1 | range:[1,10], keep order:false",
      ]
    `);
    expect(await db.explain('SELECT id FROM sbtest1 WHERE k = 3')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 1.00 | root |  | test.sbtest1.id",
        "└─IndexReader_2 | 1.00 | root |  | index:IndexRangeScan_3",
        "  └─IndexRangeScan_3 | 1.00 | cop[tikv] | table:sbtest1, index:k_1(k) | range:[3,3], keep order:false",
      ]
    `);
    expect(await db.explain('SELECT c FROM sbtest1 WHERE k > 3 LIMIT 5')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 5.00 | root |  | test.sbtest1.c",
        "└─Limit_2 | 5.00 | root |  | offset:0, count:5",
        "  └─IndexLookUp_3 | 250.00 | root |  | ",
        "    ├─IndexRangeScan(Build)_4 | 250.00 | cop[tikv] | table:sbtest1, index:k_1(k) | range:(3,+inf], keep order:false",
        "    └─TableRowIDScan(Probe)_5 | 250.00 | cop[tikv] | table:sbtest1 | keep order:false",
      ]
    `);
    expect(await db.explain('SELECT * FROM sbtest1 WHERE id IN (1, 2, 3)')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 3.00 | root |  | test.sbtest1.id, test.sbtest1.k, test.sbtest1.c, test.sbtest1.pad",
        "└─Batch_Point_Get_2 | 3.00 | root | table:sbtest1 | handle:[1 2 3], keep order:false, desc:false",
      ]
    `);
    expect(await db.explain('UPDATE sbtest1 SET k=k+1 WHERE id=?')).toMatchInlineSnapshot(`
      [
        "Update_1 | N/A | root |  | N/A",
        "└─Point_Get_2 | 1.00 | root | table:sbtest1 | handle:?",
      ]
    `);
    expect(await db.explain('SELECT c FROM sbtest1 WHERE pad = ? ORDER BY k DESC LIMIT 3')).toMatchInlineSnapshot(`
      [
        "Projection_1 | 3.00 | root |  | test.sbtest1.c",
        "└─TopN_2 | 3.00 | root |  | test.sbtest1.k:desc, offset:0, count:3",
        "  └─Selection_3 | 8000.00 | root |  | eq(test.sbtest1.pad, ?)",
        "    └─TableReader_4 | 10000.00 | root |  | data:TableFullScan_5",
        "      └─TableFullScan_5 | 10000.00 | cop[tikv] | table:sbtest1 | keep order:false, stats:pseudo",
      ]
    `);
  });
});
