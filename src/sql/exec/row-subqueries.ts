/**
 * Subqueries of DML expressions (plan/builder-dml-subquery.ts): a filter for UPDATE / DELETE
 * WHERE conjuncts with subqueries, and the hidden values INSERT VALUES / UPDATE SET read.
 */
import { compileExpr, truthy } from '../expr/index.js';
import type { RowSubqueries } from '../plan/index.js';
import type { ExecContext } from './context.js';
import type { Row } from './executor.js';
import { buildExecutor } from './build.js';
import { compileSubqueries, SubqueryRunner } from './apply.js';

export type RowFilter = (rows: Row[], ctx: ExecContext) => Promise<Row[]>;

/** Keeps the rows (table columns first) for which every rewritten conjunct is TRUE. */
export function compileRowFilter(rs: RowSubqueries | undefined): RowFilter | null {
  if (rs === undefined) return null;
  const conds = rs.exprs.map((e) => compileExpr(e, rs.schema, 'where clause'));
  const start = runnerFactory(rs);
  return async (rows, ctx) => {
    const runner = start(ctx);
    const out: Row[] = [];
    for (const row of rows) {
      const ext = await runner.extend(row);
      if (conds.every((c) => truthy(c(ext, ctx)) === true)) out.push(row);
    }
    return out;
  };
}

/** A per-execution runner computing the hidden columns of `rs` for a row. */
export function runnerFactory(rs: RowSubqueries): (ctx: ExecContext) => SubqueryRunner {
  const subs = compileSubqueries(rs.subqueries, rs.schema, rs.width, buildExecutor);
  return (ctx) => new SubqueryRunner(ctx, subs, rs.width);
}
