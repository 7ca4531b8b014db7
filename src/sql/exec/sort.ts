/**
 * Sort and TopN (ORDER BY [+ LIMIT]): NULLs first ascending, last descending; stable. Strings
 * order by each item's collation ('a' and 'A' tie under `_ci`).
 */
import { compareStrings, compareValues, compileExpr, deriveCollation, enumSortType, numericView, type Evaluator } from '../expr/index.js';
import type { PlanNode, SortItem } from '../plan/index.js';
import { POS_TABLE, type RowSchema } from '../plan/index.js';
import { collationOf, isIntegerType, isStringType, typeCollation, type Collation, type Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { drain, fromRows, type ExecFactory, type Row } from './executor.js';
import { compileLimit } from './limit-values.js';

type SortNode = Extract<PlanNode, { kind: 'sort' }>;
type TopNNode = Extract<PlanNode, { kind: 'topN' }>;

export function sortFactory(node: SortNode, child: ExecFactory): ExecFactory {
  const sorter = compileSorter(node.items, node.child.schema);
  return (ctx) => lazy(async () => sorter(await drain(child(ctx, Infinity)), ctx));
}

/**
 * SELECT DISTINCT ... ORDER BY over every selected column (sysbench's
 * `SELECT DISTINCT c ... ORDER BY c`): sorting first puts equal rows next to each other, so
 * duplicates are dropped by comparing neighbours instead of hashing each row's collation weight.
 * `child` builds the distinct node's input. Used when sortsOutDuplicates(node) holds.
 */
export function sortDistinctFactory(node: SortNode, child: ExecFactory): ExecFactory {
  const sorter = compileSorter(node.items, node.child.schema, true);
  return (ctx) => lazy(async () => sorter(await drain(child(ctx, Infinity)), ctx));
}

/**
 * True when `node` sorts a DISTINCT whose rows are equal exactly when every sort key compares
 * equal: the keys name every output column, each an integer or string column sorted under the
 * collation DISTINCT compares it by (both orders are total on such values, and equality under
 * them is DISTINCT's).
 */
export function sortsOutDuplicates(node: SortNode): boolean {
  const distinct = node.child;
  if (distinct.kind !== 'distinct') return false;
  const columns = distinct.schema.columns;
  const covered = new Set<number>();
  for (const item of node.items) {
    const e = item.expr;
    if (e.kind !== 'column' || e.table !== POS_TABLE) return false;
    const i = Number(e.name);
    const col = columns[i];
    if (col === undefined) return false;
    if (!isIntegerType(col.type) && !isStringType(col.type)) return false;
    if (deriveCollation(e, distinct.schema).collation.name !== typeCollation(col.type).name) return false;
    covered.add(i);
  }
  return covered.size === columns.length;
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

/** With `dedupe`, of rows whose keys all compare equal only the first (in input order) is kept. */
export function compileSorter(items: readonly SortItem[], schema: RowSchema, dedupe = false): Sorter {
  // ENUM / SET columns sort by member index / bitmask (numericView), not by text.
  const enums = items.map((o) => enumSortType(o.expr, schema));
  const evals: Evaluator[] = items.map((o, i) => numericView(compileExpr(o.expr, schema, 'order clause'), enums[i]));
  const dirs = items.map((o) => (o.desc ? -1 : 1));
  const colls = items.map((o, i) => (enums[i] !== undefined ? collationOf('binary') : deriveCollation(o.expr, schema).collation));
  const n = evals.length;
  // The first key's strings under a `_ci` collation carry a numeric prefix (Collation.sortPrefix).
  const first = colls[0];
  const prefixOf = first !== undefined && !first.binary ? first.sortPrefix : undefined;
  const dir0 = dirs[0] ?? 1;
  const compareKeys = (a: Keyed, b: Keyed): number => {
    const pa = a.prefix;
    const pb = b.prefix;
    if (pa !== pb && !Number.isNaN(pa) && !Number.isNaN(pb)) return pa < pb ? -dir0 : dir0;
    for (let k = 0; k < n; k++) {
      const coll = colls[k] as Collation;
      const c = coll.binary ? compareNullsFirst(a.keys[k] as Value, b.keys[k] as Value) : compareCollated(a, b, k, coll);
      if (c !== 0) return c * (dirs[k] as number);
    }
    return 0;
  };
  return (rows, ctx) => {
    const keyed = new Array<Keyed>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Row;
      const keys = new Array<Value>(n);
      for (let k = 0; k < n; k++) keys[k] = (evals[k] as Evaluator)(row, ctx);
      const k0 = keys[0];
      const prefix = prefixOf !== undefined && typeof k0 === 'string' ? prefixOf(k0) : Number.NaN;
      keyed[i] = { row, keys, prefix, weights: null };
    }
    // Array.prototype.sort is stable: rows with equal keys keep their input order.
    keyed.sort(compareKeys);
    if (dedupe) return firstOfEachRun(keyed, compareKeys);
    const out = new Array<Row>(keyed.length);
    for (let i = 0; i < keyed.length; i++) out[i] = (keyed[i] as Keyed).row;
    return out;
  };
}

/** The rows of sorted `keyed`, skipping each one whose keys equal the previous row's. */
function firstOfEachRun(keyed: readonly Keyed[], compareKeys: (a: Keyed, b: Keyed) => number): Row[] {
  const out: Row[] = [];
  let prev: Keyed | undefined;
  for (const e of keyed) {
    if (prev !== undefined && compareKeys(prev, e) === 0) continue;
    out.push(e.row);
    prev = e;
  }
  return out;
}

interface Keyed {
  readonly row: Row;
  readonly keys: Value[];
  /** The first key's Collation.sortPrefix (NaN when it has none). */
  readonly prefix: number;
  /** Per key: the collation weight of a string, computed when first needed (null: none yet). */
  weights: Array<string | undefined> | null;
}

/**
 * Compares key k of two rows under a `_ci` collation: strings by the collation (ASCII pairs
 * without weights; otherwise by weights computed once per row and kept), the rest by value.
 */
function compareCollated(a: Keyed, b: Keyed, k: number, coll: Collation): number {
  const va = a.keys[k] as Value;
  const vb = b.keys[k] as Value;
  if (typeof va !== 'string' || typeof vb !== 'string') return compareNullsFirst(va, vb);
  const wa = a.weights?.[k];
  const wb = b.weights?.[k];
  if (wa === undefined && wb === undefined) {
    const quick = coll.quickCompare(va, vb);
    if (quick !== undefined) return quick;
  }
  return compareStrings(wa ?? weightOf(a, k, coll), wb ?? weightOf(b, k, coll));
}

function weightOf(e: Keyed, k: number, coll: Collation): string {
  const w = coll.weight(e.keys[k] as string);
  if (e.weights === null) e.weights = new Array<string | undefined>(e.keys.length);
  e.weights[k] = w;
  return w;
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
