/** Selection: keeps the rows for which every condition is TRUE. */
import { compileExpr, truthy, type Evaluator } from '../expr/index.js';
import type { PlanNode } from '../plan/index.js';
import type { ExecContext } from './context.js';
import type { ExecFactory, Executor, Row } from './executor.js';

type SelectionNode = Extract<PlanNode, { kind: 'selection' }>;

export function selectionFactory(node: SelectionNode, child: ExecFactory): ExecFactory {
  const conds = node.conditions.map((c) => compileExpr(c, node.child.schema, node.clause));
  return (ctx, want) => new SelectionExec(ctx, child(ctx, want), conds);
}

export function passes(conds: readonly Evaluator[], row: Row, ctx: ExecContext): boolean {
  for (let i = 0; i < conds.length; i++) {
    if (truthy((conds[i] as Evaluator)(row, ctx)) !== true) return false;
  }
  return true;
}

class SelectionExec implements Executor {
  constructor(
    private readonly ctx: ExecContext,
    private readonly child: Executor,
    private readonly conds: readonly Evaluator[],
  ) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      const batch = await this.child.next();
      if (batch === null) return null;
      const out = batch.filter((r) => passes(this.conds, r, this.ctx));
      if (out.length > 0) return out;
    }
  }
}
