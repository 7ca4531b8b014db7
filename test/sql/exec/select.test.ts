import { beforeAll, describe, expect, it } from 'vitest';
import { errno, Harness } from './harness.js';

let db: Harness;

beforeAll(async () => {
  db = await Harness.create();
  await db.ddl('CREATE TABLE e (id INT PRIMARY KEY, dept VARCHAR(10), sal INT, KEY kd (dept, sal))');
  await db.ddl('CREATE TABLE d (name VARCHAR(10) PRIMARY KEY, city VARCHAR(10))');
  await db.ok("INSERT INTO e VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 5), (4, 'b', NULL), (5, NULL, 7), (6, 'c', 1)");
  await db.ok("INSERT INTO d VALUES ('a', 'x'), ('b', 'y'), ('z', 'w')");
});

describe('SELECT', () => {
  it('aggregates, GROUP BY, HAVING, ORDER BY alias/position', async () => {
    expect(await db.rows('SELECT dept, COUNT(*) AS n, SUM(sal) s FROM e GROUP BY dept HAVING n > 1 ORDER BY 1')).toEqual([
      ['a', 2n, expect.anything()],
      ['b', 2n, expect.anything()],
    ]);
    const r = await db.rows('SELECT dept, COUNT(sal), MAX(sal) FROM e GROUP BY dept ORDER BY dept DESC');
    expect(r).toEqual([['c', 1n, 1n], ['b', 1n, 5n], ['a', 2n, 20n], [null, 1n, 7n]]);
    expect(await db.rows('SELECT COUNT(*), SUM(sal), MIN(sal) FROM e WHERE id > 100')).toEqual([[0n, null, null]]);
    expect(await db.rows('SELECT id FROM e ORDER BY sal DESC, id LIMIT 2 OFFSET 1')).toEqual([[1n], [5n]]);
    expect(await db.rows('SELECT id FROM e ORDER BY sal LIMIT ?', ['2'])).toEqual([[4n], [6n]]);
    expect(await db.rows('SELECT DISTINCT dept FROM e WHERE dept IS NOT NULL ORDER BY dept')).toEqual([['a'], ['b'], ['c']]);
    expect(await db.rows('SELECT sal + 1 AS x FROM e WHERE id = 3')).toEqual([[6n]]);
  });

  it('NULL semantics and ranges on a composite index', async () => {
    expect(await db.rows('SELECT id FROM e WHERE sal = NULL')).toEqual([]);
    expect(await db.rows('SELECT id FROM e WHERE sal IS NULL')).toEqual([[4n]]);
    expect(await db.rows("SELECT id FROM e WHERE dept = 'b' AND sal < 10")).toEqual([[3n]]);
    expect(await db.rows("SELECT id FROM e WHERE dept = 'b' AND sal IS NULL")).toEqual([[4n]]);
    expect(await db.rows("SELECT id FROM e WHERE dept IN ('a', 'c') ORDER BY id")).toEqual([[1n], [2n], [6n]]);
    expect(await db.rows('SELECT id FROM e WHERE dept IS NULL')).toEqual([[5n]]);
    expect(await db.rows('SELECT id FROM e WHERE id > 2 AND id < 2')).toEqual([]);
    expect(await db.rows('SELECT id FROM e WHERE id >= 5.5')).toEqual([[6n]]);
    expect(await db.rows('SELECT id FROM e WHERE id IN (6, 1, 6, 99)')).toEqual([[1n], [6n]]);
    expect(await db.rows("SELECT name FROM d WHERE name = 'b'")).toEqual([['b']]);
    expect(await db.rows("SELECT name FROM d WHERE name > 'a' ORDER BY name")).toEqual([['b'], ['z']]);
  });

  it('without FROM, joins, metadata', async () => {
    expect(await db.rows('SELECT 1 + 1, ?', [5n])).toEqual([[2n, 5n]]);
    expect(await db.rows('SELECT e.id, d.city FROM e JOIN d ON e.dept = d.name WHERE e.sal > 5 ORDER BY e.id')).toEqual([[1n, 'x'], [2n, 'x']]);
    expect(await db.rows('SELECT e.id, d.city FROM e LEFT JOIN d ON e.dept = d.name WHERE e.id > 4 ORDER BY e.id')).toEqual([[5n, null], [6n, null]]);
    const res = await db.result('SELECT id, sal AS s, COUNT(*) FROM e GROUP BY id LIMIT 1');
    expect(res.columns.map((c) => [c.name, c.orgName, c.table, c.primaryKey])).toEqual([['id', 'id', 'e', true], ['s', 'sal', 'e', false], ['COUNT(*)', '', '', false]]);
    const star = await db.result('SELECT * FROM d LIMIT 1');
    expect(star.columns.map((c) => c.name)).toEqual(['name', 'city']);
  });

  it('errors', async () => {
    expect(await errno(db.rows('SELECT nope FROM e'))).toBe("1054 Unknown column 'nope' in 'field list'");
    expect(await errno(db.rows('SELECT id FROM e WHERE nope = 1'))).toBe("1054 Unknown column 'nope' in 'where clause'");
    expect(await errno(db.rows('SELECT id FROM e ORDER BY nope'))).toBe("1054 Unknown column 'nope' in 'order clause'");
    expect(await errno(db.rows('SELECT * FROM missing'))).toContain("Table 'test.missing' doesn't exist");
  });
});
