import { beforeAll, describe, expect, it } from 'vitest';
import { errno, Harness } from './harness.js';

let db: Harness;

beforeAll(async () => {
  db = await Harness.create();
  await db.ddl('CREATE TABLE w (id INT PRIMARY KEY, g CHAR(1), v INT)');
  await db.ok("INSERT INTO w VALUES (1,'a',10),(2,'a',20),(3,'a',20),(4,'b',5),(5,'b',NULL),(6,'c',7)");
});

describe('window functions', () => {
  it('take `?` for NTILE buckets and LAG / LEAD / NTH_VALUE arguments', async () => {
    expect(await db.rows('SELECT id, NTILE(?) OVER (ORDER BY id) FROM w ORDER BY id', [4])).toEqual([
      [1n, 1n], [2n, 1n], [3n, 2n], [4n, 2n], [5n, 3n], [6n, 4n],
    ]);
    expect(await db.rows('SELECT id, LEAD(v, ?, ?) OVER (PARTITION BY g ORDER BY id) FROM w ORDER BY id', [2n, 0n])).toEqual([
      [1n, 20n], [2n, 0n], [3n, 0n], [4n, 0n], [5n, 0n], [6n, 0n],
    ]);
    expect(await db.rows('SELECT id, NTH_VALUE(id, ?) OVER () FROM w WHERE id < 3 ORDER BY id', ['2'])).toEqual([[1n, 2n], [2n, 2n]]);
    expect(await errno(db.rows('SELECT NTILE(?) OVER () FROM w', [0n]))).toBe('1210 Incorrect arguments to ntile');
    expect(await errno(db.rows('SELECT LAG(v, ?) OVER () FROM w', [null]))).toBe('1210 Incorrect arguments to lag');
    expect(await errno(db.rows('SELECT LAG(v, v) OVER () FROM w'))).toBe('1210 Incorrect arguments to lag');
  });

  it('read a WINDOW clause written before ORDER BY and LIMIT', async () => {
    const sql = 'SELECT id, ROW_NUMBER() OVER w1 FROM w WINDOW w1 AS (ORDER BY v DESC, id) ORDER BY id DESC LIMIT 2';
    expect(await db.rows(sql)).toEqual([[6n, 4n], [5n, 6n]]);
    const nested = 'SELECT * FROM (SELECT id, RANK() OVER w2 r FROM w WINDOW w2 AS (PARTITION BY g ORDER BY v) ORDER BY id LIMIT 3) t ORDER BY r, id';
    expect(await db.rows(nested)).toEqual([[1n, 1n], [2n, 2n], [3n, 2n]]);
  });

  it('parse RANGE frames and `n PRECEDING` frame ends', async () => {
    // A NULL key's offset bounds are its NULL peers (as MariaDB answers).
    const sql =
      'SELECT id, COUNT(*) OVER (ORDER BY v RANGE BETWEEN 10 PRECEDING AND 2 PRECEDING), ' +
      'COUNT(*) OVER (ORDER BY v RANGE BETWEEN 2 FOLLOWING AND 10 FOLLOWING), ' +
      'COUNT(*) OVER (ORDER BY v DESC RANGE BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) FROM w ORDER BY id';
    expect(await db.rows(sql)).toEqual([
      [1n, 2n, 2n, 3n], [2n, 1n, 0n, 4n], [3n, 1n, 0n, 4n], [4n, 0n, 2n, 1n], [5n, 1n, 1n, 1n], [6n, 1n, 1n, 2n],
    ]);
    expect(await db.rows('SELECT id, SUM(v) OVER (PARTITION BY g RANGE UNBOUNDED PRECEDING) FROM w ORDER BY id')).toEqual([
      [1n, expect.anything()], [2n, expect.anything()], [3n, expect.anything()], [4n, expect.anything()], [5n, expect.anything()], [6n, expect.anything()],
    ]);
    expect(await errno(db.rows('SELECT SUM(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM w'))).toBe(
      "3586 Window '<unnamed window>': frame start or end is negative, NULL or of non-integral type",
    );
  });

  it('refuse window functions outside the select list and ORDER BY', async () => {
    const refusal = "3593 You cannot use the window function 'rank' in this context.'";
    expect(await errno(db.rows('SELECT id FROM w WHERE RANK() OVER (ORDER BY id) > 1'))).toBe(refusal);
    expect(await errno(db.rows('SELECT g FROM w GROUP BY RANK() OVER (ORDER BY id)'))).toBe(refusal);
    expect(await errno(db.ok('UPDATE w SET v = RANK() OVER (ORDER BY id)'))).toBe(refusal);
    expect(await errno(db.ok('DELETE FROM w WHERE RANK() OVER (ORDER BY id) = 1'))).toBe(refusal);
  });

  it('EXPLAIN shows the Window over its Sort', async () => {
    const lines = await db.explain('SELECT id, SUM(v) OVER (PARTITION BY g ORDER BY id ROWS 1 PRECEDING) FROM w');
    expect(lines.join('\n')).toContain('Window_2');
    expect(lines.join('\n')).toContain('sum(test.w.v)->Column#w3 over(partition by test.w.g order by test.w.id rows between 1 preceding and current row)');
    expect(lines.join('\n')).toContain('Sort_3');
  });
});
