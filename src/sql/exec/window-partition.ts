/**
 * The rows a Window node computes over: sorted by PARTITION BY then ORDER BY keys (stable, with
 * the Sort executor's NULL ordering), cut into partitions, each with its peer groups (rows with
 * equal ORDER BY keys; without ORDER BY the whole partition is one peer group).
 */
import { compileExpr, deriveCollation, enumSortType, numericView, type Evaluator } from '../expr/index.js';
import type { Expr } from '../parse/index.js';
import type { RowSchema } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import type { Row } from './executor.js';
import { compareNullsFirst } from './sort.js';

export interface Partition {
  readonly rows: readonly Row[];
  /** ORDER BY key values per row. */
  readonly keys: ReadonlyArray<readonly Value[]>;
  /** First row of each row's peer group. */
  readonly peerStart: readonly number[];
  /** One past the last row of each row's peer group. */
  readonly peerEnd: readonly number[];
}

/** A PARTITION BY / ORDER BY key as compared (as Sort does): ENUM/SET by number, `_ci` strings by weight. */
export function compileWindowKey(e: Expr, schema: RowSchema): Evaluator {
  const enumType = enumSortType(e, schema);
  const ev = numericView(compileExpr(e, schema, 'window order by'), enumType);
  const coll = deriveCollation(e, schema).collation;
  if (enumType !== undefined || coll.binary) return ev;
  return (row, ctx) => {
    const v = ev(row, ctx);
    return typeof v === 'string' ? coll.weight(v) : v;
  };
}

interface Keyed {
  readonly row: Row;
  readonly i: number;
  readonly part: Value[];
  readonly ord: Value[];
}

function compareKeys(a: readonly Value[], b: readonly Value[], dirs: readonly number[] | null): number {
  for (let k = 0; k < a.length; k++) {
    const c = compareNullsFirst(a[k] as Value, b[k] as Value);
    if (c !== 0) return dirs === null ? c : c * (dirs[k] as number);
  }
  return 0;
}

/** Sorts `rows` and calls `each` with every partition in order. */
export function forEachPartition(
  rows: readonly Row[],
  ctx: ExecContext,
  partEvals: readonly Evaluator[],
  orderEvals: readonly Evaluator[],
  dirs: readonly number[],
  each: (p: Partition) => void,
): void {
  const keyed: Keyed[] = rows.map((row, i) => ({ row, i, part: partEvals.map((e) => e(row, ctx)), ord: orderEvals.map((e) => e(row, ctx)) }));
  if (partEvals.length + orderEvals.length > 0) {
    keyed.sort((a, b) => compareKeys(a.part, b.part, null) || compareKeys(a.ord, b.ord, dirs) || a.i - b.i);
  }
  let lo = 0;
  while (lo < keyed.length) {
    let hi = lo + 1;
    const first = keyed[lo] as Keyed;
    while (hi < keyed.length && compareKeys(first.part, (keyed[hi] as Keyed).part, null) === 0) hi++;
    each(partitionOf(keyed.slice(lo, hi)));
    lo = hi;
  }
}

function partitionOf(list: readonly Keyed[]): Partition {
  const n = list.length;
  const peerStart = new Array<number>(n);
  const peerEnd = new Array<number>(n);
  let start = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && compareKeys((list[k - 1] as Keyed).ord, (list[k] as Keyed).ord, null) !== 0) {
      for (let j = start; j < k; j++) peerEnd[j] = k;
      start = k;
    }
    peerStart[k] = start;
  }
  for (let j = start; j < n; j++) peerEnd[j] = n;
  return { rows: list.map((x) => x.row), keys: list.map((x) => x.ord), peerStart, peerEnd };
}
