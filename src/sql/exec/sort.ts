/**
 * Sort and TopN (ORDER BY [+ LIMIT]): NULLs first ascending, last descending; stable. Strings
 * order by each item's collation ('a' and 'A' tie under `_ci`).
 */
import { compareStrings, compareValues, compileExpr, deriveCollation, enumSortType, numericView, type Evaluator } from '../expr/index.js';
import type { PlanNode, SortItem } from '../plan/index.js';
import type { RowSchema } from '../plan/index.js';
import { collationOf, type Collation, type Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { drain, fromRows, type ExecFactory, type Row } from './executor.js';
import { compileLimit } from './limit-values.js';

type SortNode = Extract<PlanNode, { kind: 'sort' }>;
type TopNNode = Extract<PlanNode, { kind: 'topN' }>;

export function sortFactory(node: SortNode, child: ExecFactory): ExecFactory {
  const sorter = compileSorter(node.items, node.child.schema);
  return (ctx) => lazy(async () => sorter(await drain(child(ctx, Infinity)), ctx));
}

export function topNFactory(node: TopNNode, child: ExecFactory): ExecFactory {
  const sorter = compileSorter(node.items, node.child.schema);
  const count = compileLimit(node.count);
  const offset = compileLimit(node.offset);
  return (ctx) => {
    const n = count(ctx);
    const off = offset(ctx);
    return lazy(async () => {
      if (n === 0) return [];
      const rows = sorter(await drain(child(ctx, Infinity)), ctx);
      return rows.slice(off, off + n);
    });
  };
}

export type Sorter = (rows: Row[], ctx: ExecContext) => Row[];

export function compileSorter(items: readonly SortItem[], schema: RowSchema): Sorter {
  // ENUM / SET columns sort by member index / bitmask (numericView), not by text.
  const enums = items.map((o) => enumSortType(o.expr, schema));
  const evals: Evaluator[] = items.map((o, i) => numericView(compileExpr(o.expr, schema, 'order clause'), enums[i]));
  const dirs = items.map((o) => (o.desc ? -1 : 1));
  const colls = items.map((o, i) => (enums[i] !== undefined ? collationOf('binary') : deriveCollation(o.expr, schema).collation));
  const weighed = colls.some((c) => !c.binary);
  return (rows, ctx) => {
    const keyed = rows.map((row, i) => {
      const keys = evals.map((e) => e(row, ctx));
      return { row, i, keys, weights: weighed ? weightsOf(keys, colls) : null };
    });
    keyed.sort((a, b) => {
      for (let k = 0; k < dirs.length; k++) {
        const wa = a.weights?.[k];
        const wb = b.weights?.[k];
        const c = wa !== undefined && wb !== undefined ? compareStrings(wa, wb) : compareNullsFirst(a.keys[k] as Value, b.keys[k] as Value);
        if (c !== 0) return c * (dirs[k] as number);
      }
      return a.i - b.i;
    });
    return keyed.map((k) => k.row);
  };
}

/** Sort keys of strings under `_ci` collations, computed once per row (undefined: compare the value). */
function weightsOf(keys: readonly Value[], colls: readonly Collation[]): Array<string | undefined> {
  return keys.map((v, k) => {
    const c = colls[k] as Collation;
    return typeof v === 'string' && !c.binary ? c.weight(v) : undefined;
  });
}

export function compareNullsFirst(a: Value, b: Value): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return compareValues(a, b) ?? 0;
}

/** An executor that computes all its rows on the first next(). */
export function lazy(f: () => Promise<Row[]>): { next(): Promise<Row[] | null> } {
  let started = false;
  return {
    next: async () => {
      if (started) return null;
      started = true;
      return fromRows(await f()).next();
    },
  };
}
