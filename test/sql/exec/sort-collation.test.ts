/**
 * ORDER BY / DISTINCT on `_ci` strings: ASCII values take the allocation-free comparison path,
 * non-ASCII ones the weight path; mixed data must order exactly as a sort by full weights.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { collationOf, compareCodePoints, type Value } from '../../../src/types/index.js';
import { Harness } from './harness.js';

let db: Harness;
const ai = collationOf('utf8mb4_0900_ai_ci');
const general = collationOf('utf8mb4_general_ci');

const unit = fc.constantFrom('a', 'A', 'b', 'B', 'z', ' ', '_', '-', '0', '9', 'é', 'É', 'ß', 's', 'S', 'ﬁ', 'Ж', '\u0301');
const text = fc.array(unit, { maxLength: 6 }).map((cs) => cs.join(''));

beforeAll(async () => {
  db = await Harness.create();
  await db.ddl('CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(20), g VARCHAR(20) COLLATE utf8mb4_general_ci)');
});

/** Reference: stable sort by full collation weights (NULL first), ties by id. */
function expectedOrder(rows: Array<[number, string | null]>, weight: (s: string) => string, desc: boolean): number[] {
  const dir = desc ? -1 : 1;
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [a[1], b[1]];
      const c = x === null ? (y === null ? 0 : -1) : y === null ? 1 : compareCodePoints(weight(x), weight(y));
      return c !== 0 ? c * dir : a[0] - b[0];
    })
    .map((r) => r[0]);
}

/** Replaces the table's rows with `vals` (ids 1..n; v and g hold the same value). */
async function load(vals: ReadonlyArray<string | null>): Promise<Array<[number, string | null]>> {
  await db.ok('DELETE FROM s');
  const rows = vals.map((v, i): [number, string | null] => [i + 1, v]);
  for (const [id, v] of rows) await db.ok('INSERT INTO s VALUES (?, ?, ?)', [BigInt(id), v, v]);
  return rows;
}

/** ORDER BY v and ORDER BY g (ties broken by `tieBreak`) equal the reference order. */
async function expectOrdered(rows: Array<[number, string | null]>, desc: boolean, tieBreak: string): Promise<void> {
  const order = desc ? 'DESC' : '';
  const byV = await db.rows(`SELECT id FROM s ORDER BY v ${order}${tieBreak}`);
  expect(byV.map((r) => Number(r[0]))).toEqual(expectedOrder(rows, (s) => ai.weight(s), desc));
  const byG = await db.rows(`SELECT id FROM s ORDER BY g ${order}${tieBreak}`);
  expect(byG.map((r) => Number(r[0]))).toEqual(expectedOrder(rows, (s) => general.weight(s), desc));
}

describe('ORDER BY and DISTINCT under _ci collations', () => {
  it('order like a sort by full weights, for mixed ASCII and non-ASCII values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { freq: 8 }), { minLength: 1, maxLength: 25 }), fc.boolean(), async (vals, desc) => {
        const rows = await load(vals);
        await expectOrdered(rows, desc, ', id');
        const distinct = await db.rows('SELECT DISTINCT v FROM s');
        const keys = new Set(vals.map((v) => (v === null ? null : ai.weight(v))));
        expect(distinct.length).toBe(keys.size);
        expect(new Set(distinct.map((r) => (r[0] === null ? null : ai.weight(r[0] as string)))).size).toBe(keys.size);
      }),
      { numRuns: 60 },
    );
  });

  it('orders long values sharing their first characters (past the sort prefix) like full weights', async () => {
    const stem = fc.constantFrom('', 'abcdef', 'ABCDEF', 'abcde', 'abcdefgh', 'abcdef ', 'abcdé');
    const tail = fc.array(unit, { maxLength: 4 }).map((cs) => cs.join(''));
    const value = fc.tuple(stem, tail).map(([s, t]) => s + t);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(value, { freq: 8 }), { minLength: 1, maxLength: 25 }), fc.boolean(), async (vals, desc) => {
        // No id tie-break: rows with equal weights must keep scan (id) order, the sort being stable.
        await expectOrdered(await load(vals), desc, '');
      }),
      { numRuns: 60 },
    );
  });

  it('orders sysbench-like values (long ASCII) and keeps ties stable', async () => {
    await db.ok('DELETE FROM s');
    const vals: Value[] = ['31006815345-444', '31006815345-44', 'AB-1', 'ab-1', '_x', '0', ''];
    for (let i = 0; i < vals.length; i++) await db.ok('INSERT INTO s VALUES (?, ?, ?)', [BigInt(i + 1), vals[i] ?? null, vals[i] ?? null]);
    expect((await db.rows('SELECT id FROM s ORDER BY v')).map((r) => Number(r[0]))).toEqual([7, 5, 6, 2, 1, 3, 4]);
  });
});
