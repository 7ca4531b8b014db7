/**
 * Table scans decode rows straight from the store's buffers (txn.scanMapped). The test store
 * (mem-txn.ts) hands each pair over in a scratch buffer it overwrites right after, so any
 * value that kept a view of the pair would come back as 0xEE bytes here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let db: Harness;

const bytes = (...xs: number[]): Uint8Array => Uint8Array.from(xs);

beforeAll(async () => {
  db = await Harness.create();
  await db.ddl('CREATE TABLE v (id INT PRIMARY KEY, b VARBINARY(8), blob_col BLOB, s VARCHAR(20), d DECIMAL(6,2), t DATETIME, j JSON)');
  await db.ddl('CREATE TABLE c (name VARCHAR(10), n INT, PRIMARY KEY (name))');
  for (let i = 1; i <= 5; i++) {
    await db.ok('INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?)', [
      BigInt(i), bytes(i, 0, 255), bytes(1, 2, 3, i), `row ${i} é`, `${i}.25`, `2026-12-0${i} 10:00:00`, `{"k": ${i}}`,
    ]);
    await db.ok('INSERT INTO c VALUES (?, ?)', [`name${i}`, BigInt(i)]);
  }
});

describe('rows decoded from borrowed scan buffers', () => {
  it('keep every column value after the scan moved on', async () => {
    const rows = await db.rows('SELECT id, b, blob_col, s, CAST(d AS CHAR), CAST(t AS CHAR), CAST(j AS CHAR) FROM v WHERE id BETWEEN 2 AND 4 ORDER BY s DESC');
    expect(rows).toEqual([4, 3, 2].map((i) => [
      BigInt(i), bytes(i, 0, 255), bytes(1, 2, 3, i), `row ${i} é`, `${i}.25`, `2026-12-0${i} 10:00:00`, `{"k": ${i}}`,
    ]));
  });

  it('keep binary values through DISTINCT, GROUP BY and a full scan', async () => {
    expect(await db.rows('SELECT DISTINCT blob_col FROM v ORDER BY blob_col')).toEqual([1, 2, 3, 4, 5].map((i) => [bytes(1, 2, 3, i)]));
    expect(await db.rows('SELECT b, COUNT(*) FROM v GROUP BY b ORDER BY b')).toEqual([1, 2, 3, 4, 5].map((i) => [bytes(i, 0, 255), 1n]));
    expect((await db.rows('SELECT b FROM v')).map((r) => r[0])).toEqual([1, 2, 3, 4, 5].map((i) => bytes(i, 0, 255)));
  });

  it('keep the values of a table keyed by a string (common handle)', async () => {
    expect(await db.rows("SELECT name, n FROM c WHERE name >= 'name2' ORDER BY n")).toEqual([2, 3, 4, 5].map((i) => [`name${i}`, BigInt(i)]));
  });
});
