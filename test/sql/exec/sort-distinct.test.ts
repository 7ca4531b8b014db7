/**
 * SELECT DISTINCT ... ORDER BY over every selected column sorts first and drops neighbouring
 * duplicates (sort.ts sortDistinctFactory). Results must equal DISTINCT-then-sort: one row per
 * class of equal values (under the column's collation), the first one in scan order, in the
 * requested order.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSelect, type PlanNode } from '../../../src/sql/plan/index.js';
import { parseStatement, type SelectStmt } from '../../../src/sql/parse/index.js';
import { sortsOutDuplicates } from '../../../src/sql/exec/sort.js';
import { collationOf, compareCodePoints } from '../../../src/types/index.js';
import type { Schema } from '../../../src/catalog/index.js';
import { Harness } from './harness.js';

let db: Harness;
let schema: Schema;
const ai = collationOf('utf8mb4_0900_ai_ci');

const unit = fc.constantFrom('a', 'A', 'b', 'B', ' ', '-', '0', '9', 'é', 'É', 'ß', 's', 'S');
const text = fc.array(unit, { maxLength: 4 }).map((cs) => cs.join(''));

beforeAll(async () => {
  db = await Harness.create();
  await db.ddl('CREATE TABLE d (id INT PRIMARY KEY, v VARCHAR(20), n INT, b VARCHAR(20) COLLATE utf8mb4_bin)');
  schema = await db.catalog.latestSchema();
});

function sortNode(sql: string): Extract<PlanNode, { kind: 'sort' }> | undefined {
  let p: PlanNode = buildSelect(parseStatement(sql).stmt as SelectStmt, schema, 'test');
  for (;;) {
    if (p.kind === 'sort') return p;
    if (!('child' in p)) return undefined;
    p = p.child;
  }
}

/** DISTINCT by weight keeping the first value in id order, then ordered by weight (NULL first). */
function expected(vals: ReadonlyArray<string | null>, desc: boolean): Array<string | null> {
  const firsts = new Map<string | null, string | null>();
  for (const v of vals) {
    const k = v === null ? null : ai.weight(v);
    if (!firsts.has(k)) firsts.set(k, v);
  }
  const dir = desc ? -1 : 1;
  return [...firsts.entries()]
    .sort(([a], [b]) => dir * (a === null ? (b === null ? 0 : -1) : b === null ? 1 : compareCodePoints(a, b)))
    .map(([, v]) => v);
}

async function load(vals: ReadonlyArray<string | null>): Promise<void> {
  await db.ok('DELETE FROM d');
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i] ?? null;
    await db.ok('INSERT INTO d VALUES (?, ?, ?, ?)', [BigInt(i + 1), v, BigInt(i % 3), v]);
  }
}

describe('DISTINCT ... ORDER BY every selected column', () => {
  it('is planned as sort-then-drop-neighbours only when the keys cover every column', () => {
    expect(sortsOutDuplicates(sortNode('SELECT DISTINCT v FROM d WHERE id BETWEEN 1 AND 9 ORDER BY v') as never)).toBe(true);
    expect(sortsOutDuplicates(sortNode('SELECT DISTINCT v, n FROM d ORDER BY n DESC, v') as never)).toBe(true);
    expect(sortsOutDuplicates(sortNode('SELECT DISTINCT v, n FROM d ORDER BY v') as never)).toBe(false);
    expect(sortsOutDuplicates(sortNode('SELECT DISTINCT n / 2 AS h FROM d ORDER BY h') as never)).toBe(false);
    expect(sortsOutDuplicates(sortNode('SELECT v FROM d ORDER BY v') as never)).toBe(false);
  });

  it('returns what DISTINCT then ORDER BY returns, under a _ci collation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { freq: 6 }), { minLength: 1, maxLength: 20 }), fc.boolean(), async (vals, desc) => {
        await load(vals);
        const rows = await db.rows(`SELECT DISTINCT v FROM d ORDER BY v ${desc ? 'DESC' : ''}`);
        expect(rows.map((r) => r[0])).toEqual(expected(vals, desc));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps one row per distinct pair over two columns, and binary strings apart by case', async () => {
    await load(['a', 'A', 'a', 'b', 'B', null, null, 'a ']);
    const pairs = await db.rows('SELECT DISTINCT n, v FROM d ORDER BY n, v');
    expect(pairs).toEqual([
      [0n, null], [0n, 'a'], [0n, 'b'],
      [1n, 'A'], [1n, 'a '], [1n, 'B'], // utf8mb4_0900_ai_ci is NO PAD: 'a ' is not 'A'
      [2n, null], [2n, 'a'],
    ]);
    const bin = await db.rows('SELECT DISTINCT b FROM d WHERE id < 8 ORDER BY b DESC');
    expect(bin).toEqual([['b'], ['a'], ['B'], ['A'], [null]]);
    const ints = await db.rows('SELECT DISTINCT n FROM d ORDER BY n DESC');
    expect(ints).toEqual([[2n], [1n], [0n]]);
  });
});
