/** Window functions in the AST: `f(args) OVER (PARTITION BY ... ORDER BY ... frame)` or `OVER w`. */
import type { AggName, Expr, OrderItem } from './ast.js';

export type RankingFuncName = 'ROW_NUMBER' | 'RANK' | 'DENSE_RANK' | 'PERCENT_RANK' | 'CUME_DIST' | 'NTILE';
export type ValueFuncName = 'LAG' | 'LEAD' | 'FIRST_VALUE' | 'LAST_VALUE' | 'NTH_VALUE';
/** Aggregates usable as window functions (GROUP_CONCAT is not one in MySQL). */
export type WindowAggName = Exclude<AggName, 'GROUP_CONCAT'>;
export type WindowFuncName = RankingFuncName | ValueFuncName | WindowAggName;

/** One end of a frame; `offset` is a constant (literal or `?`), checked at run time. */
export type FrameBound =
  | { readonly kind: 'unboundedPreceding' | 'unboundedFollowing' | 'currentRow' }
  | { readonly kind: 'preceding' | 'following'; readonly offset: Expr };

export interface WindowFrame {
  readonly unit: 'rows' | 'range';
  readonly start: FrameBound;
  readonly end: FrameBound;
}

export interface WindowSpec {
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly OrderItem[];
  readonly frame?: WindowFrame;
  /** The WINDOW clause name this spec was defined under (error messages). */
  readonly name?: string;
  /** `(w ORDER BY ...)`: the named window this one extends (resolved by the planner). */
  readonly base?: string;
}

/** `WINDOW w AS (...)` entries of a SELECT. */
export interface NamedWindow {
  readonly name: string;
  readonly spec: WindowSpec;
}

/**
 * A window function call. For aggregates `args` is `[arg]`, or `[]` for `COUNT(*)`.
 * `over` is the inline spec or the name of a WINDOW clause entry (resolved by the planner).
 */
export interface WindowExpr {
  readonly kind: 'window';
  readonly name: WindowFuncName;
  readonly args: readonly Expr[];
  readonly over: WindowSpec | string;
}
