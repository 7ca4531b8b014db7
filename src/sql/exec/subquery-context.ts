/**
 * Contexts derived from a statement's ExecContext for the parts a subquery runs: the same
 * statement with extra parameter slots (correlated values), or with the rows of a recursive
 * CTE's previous iteration. They delegate everything else to the statement's context.
 */
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import type { Row } from './executor.js';

const CTE_ROWS = Symbol('cteRows');

interface WithCteRows {
  readonly [CTE_ROWS]?: ReadonlyMap<number, readonly Row[]>;
}

/** `ctx` with `params` in place of its parameters. */
export function withParams(ctx: ExecContext, params: readonly Value[]): ExecContext {
  return Object.create(ctx, { params: { value: params, enumerable: true } }) as ExecContext;
}

/** `ctx` where recursive CTE `id` reads `rows`. */
export function withCteRows(ctx: ExecContext, id: number, rows: readonly Row[]): ExecContext {
  const known = (ctx as ExecContext & WithCteRows)[CTE_ROWS];
  const map = new Map(known ?? []);
  map.set(id, rows);
  return Object.create(ctx, { [CTE_ROWS]: { value: map } }) as ExecContext;
}

export function cteRows(ctx: ExecContext, id: number): readonly Row[] {
  return (ctx as ExecContext & WithCteRows)[CTE_ROWS]?.get(id) ?? [];
}
