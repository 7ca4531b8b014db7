/**
 * Physical plan nodes: an immutable, `kind`-tagged tree. Every node carries its output
 * `schema`; expressions inside a node are resolved against its child's schema (the executor
 * compiles them once). Range bounds and point values are expressions evaluated at run time,
 * so a plan is reused with new parameters.
 */
import type { IndexInfo, TableInfo } from '../../catalog/index.js';
import type { AggName, Expr, WindowFrame, WindowFuncName } from '../parse/index.js';
import type { ColumnType } from '../../types/index.js';
import type { RowSchema } from './row-schema.js';

/** One key column of an access path (int handle, common-handle PK, or index column). */
export interface KeyColumn {
  /** Offset in the table's columns. */
  readonly offset: number;
  readonly name: string;
  readonly type: ColumnType;
}

/** A point value: an expression (never NULL-matching) or IS NULL. */
export type PointValue = { readonly kind: 'expr'; readonly expr: Expr } | { readonly kind: 'null' };

export interface RangeBound {
  readonly expr: Expr;
  readonly inclusive: boolean;
}

/**
 * Key ranges over `columns`: the cartesian product of `points` on the leading columns, then
 * an optional interval on the next column (the tightest of `lows` / `highs` at run time).
 */
export interface RangeSpec {
  readonly columns: readonly KeyColumn[];
  readonly points: ReadonlyArray<readonly PointValue[]>;
  readonly lows: readonly RangeBound[];
  readonly highs: readonly RangeBound[];
  /** The conditions the ranges capture exactly (dropped from the Selection). */
  readonly consumed: readonly Expr[];
}

/** Which rows of a table an access path reads: the table (int/common handle) or an index. */
export interface AccessBase {
  readonly table: TableInfo;
  readonly alias: string;
  /** Table columns the query needs (offsets); others may be left null by the reader. */
  readonly needed: readonly number[];
  /** SELECT ... FOR UPDATE / FOR SHARE: lock the record keys read. */
  readonly lock: boolean;
}

/**
 * Readers of a table output the table's columns in order plus one hidden trailing slot holding
 * the row handle (bigint for int handles, the encoded bytes for common handles).
 */
export type PlanNode =
  | ({ readonly kind: 'pointGet'; readonly schema: RowSchema; readonly index: IndexInfo | null; readonly values: readonly Expr[] } & AccessBase)
  | ({ readonly kind: 'batchPointGet'; readonly schema: RowSchema; readonly index: IndexInfo | null; readonly keys: ReadonlyArray<readonly Expr[]> } & AccessBase)
  | ({ readonly kind: 'tableScan'; readonly schema: RowSchema; readonly ranges: RangeSpec | null; readonly desc: boolean } & AccessBase)
  | ({ readonly kind: 'indexScan'; readonly schema: RowSchema; readonly index: IndexInfo; readonly ranges: RangeSpec; readonly covering: boolean; readonly desc: boolean } & AccessBase)
  | { readonly kind: 'dual'; readonly schema: RowSchema; readonly rows: 0 | 1 }
  /** An information_schema table computed in memory (info-schema.ts); outputs its columns only. */
  | { readonly kind: 'memTable'; readonly schema: RowSchema; readonly table: TableInfo; readonly alias: string }
  | { readonly kind: 'selection'; readonly schema: RowSchema; readonly child: PlanNode; readonly conditions: readonly Expr[]; readonly clause: string }
  | { readonly kind: 'projection'; readonly schema: RowSchema; readonly child: PlanNode; readonly exprs: readonly Expr[] }
  | { readonly kind: 'hashAgg'; readonly schema: RowSchema; readonly child: PlanNode; readonly groupBy: readonly Expr[]; readonly aggs: readonly AggSpec[] }
  | { readonly kind: 'sort'; readonly schema: RowSchema; readonly child: PlanNode; readonly items: readonly SortItem[] }
  | { readonly kind: 'topN'; readonly schema: RowSchema; readonly child: PlanNode; readonly items: readonly SortItem[]; readonly count: Expr; readonly offset: Expr | null }
  | { readonly kind: 'limit'; readonly schema: RowSchema; readonly child: PlanNode; readonly count: Expr; readonly offset: Expr | null }
  | { readonly kind: 'distinct'; readonly schema: RowSchema; readonly child: PlanNode }
  /** Window functions over one window (builder-window.ts): the child's columns, then one per function. */
  | { readonly kind: 'window'; readonly schema: RowSchema; readonly child: PlanNode; readonly partitionBy: readonly Expr[]; readonly orderBy: readonly SortItem[]; readonly funcs: readonly WindowFunc[] }
  | {
      readonly kind: 'join';
      readonly schema: RowSchema;
      readonly joinType: 'inner' | 'left' | 'cross';
      readonly left: PlanNode;
      readonly right: PlanNode;
      readonly on: readonly Expr[];
      /** LATERAL right side: re-run per left row with these left-side values bound to parameter slots. */
      readonly lateral?: ReadonlyArray<{ readonly expr: Expr; readonly param: number }>;
      /** Index join: the right (base table) side is read by key per batch of left rows (`right` is the fallback). */
      readonly indexJoin?: IndexJoinSpec;
    }
  /** Runs subqueries per input row (or once when uncorrelated) and appends one hidden column each (builder-subquery.ts). */
  | { readonly kind: 'apply'; readonly schema: RowSchema; readonly child: PlanNode; readonly subqueries: readonly SubqueryPlan[] }
  /** UNION: children's rows (already cast to the merged types); the first `distinctUpTo` children deduplicated together. */
  | { readonly kind: 'union'; readonly schema: RowSchema; readonly children: readonly PlanNode[]; readonly distinctUpTo: number }
  /** A derived table, view or CTE reference: the child's rows under new column names. */
  | { readonly kind: 'derived'; readonly schema: RowSchema; readonly child: PlanNode; readonly alias: string }
  /** WITH RECURSIVE: anchor rows, then the recursive part over the previous iteration's rows until none are new. */
  | { readonly kind: 'cteRecursive'; readonly schema: RowSchema; readonly id: number; readonly name: string; readonly anchor: PlanNode; readonly recursive: PlanNode; readonly distinct: boolean }
  /** The rows of the previous iteration of recursive CTE `id`. */
  | { readonly kind: 'cteRef'; readonly schema: RowSchema; readonly id: number; readonly name: string };

/**
 * The inner side of an index join: `table` read by `columns` (the handle when `index` is null,
 * else the index's leading columns) equal to `outerKeys` (over the left schema), then filtered by
 * the table's own `conds` (over its schema); the join's ON is still checked on every pair.
 */
export interface IndexJoinSpec extends AccessBase {
  readonly index: IndexInfo | null;
  readonly columns: readonly KeyColumn[];
  readonly outerKeys: readonly Expr[];
  readonly conds: readonly Expr[];
}

/**
 * One subquery of an Apply. `outer` are the enclosing query's values the subquery reads, bound
 * to parameter slots `param` (evaluated over the Apply's input row); `probe` is the left side
 * of IN / ANY / ALL over the input row (plus the hidden columns of earlier subqueries).
 */
export interface SubqueryPlan {
  readonly mode: 'scalar' | 'exists' | 'in';
  readonly plan: PlanNode;
  readonly not: boolean;
  readonly probe: Expr | null;
  readonly cmp?: '=' | '<>' | '<' | '<=' | '>' | '>=';
  readonly all?: boolean;
  readonly outer: ReadonlyArray<{ readonly expr: Expr; readonly param: number }>;
}

export type PlanKind = PlanNode['kind'];
export type ReaderNode = Extract<PlanNode, { kind: 'pointGet' | 'batchPointGet' | 'tableScan' | 'indexScan' }>;

export interface AggSpec {
  /** 'FIRSTROW' carries a non-grouped column through the aggregation (MySQL without ONLY_FULL_GROUP_BY). */
  readonly name: AggName | 'FIRSTROW';
  readonly arg: Expr | null;
  readonly distinct: boolean;
  readonly separator?: string;
  readonly argType: ColumnType;
}

/** One window function of a Window node; `frame` is explicit (the default filled in). */
export interface WindowFunc {
  readonly name: WindowFuncName;
  readonly args: readonly Expr[];
  readonly frame: WindowFrame;
  /** The first argument's type (aggregates accumulate by it). */
  readonly argType: ColumnType;
  readonly type: ColumnType;
  /** For messages: the WINDOW clause name or `<unnamed window>`. */
  readonly windowName: string;
}

export interface SortItem {
  readonly expr: Expr;
  readonly desc: boolean;
}

export function isReader(p: PlanNode): p is ReaderNode {
  return p.kind === 'pointGet' || p.kind === 'batchPointGet' || p.kind === 'tableScan' || p.kind === 'indexScan';
}
