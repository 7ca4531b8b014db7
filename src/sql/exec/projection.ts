/** Projection: one output row per input row, from the select-list evaluators. */
import { compileExpr, type Evaluator } from '../expr/index.js';
import type { PlanNode } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import type { ExecFactory, Executor, Row } from './executor.js';

type ProjectionNode = Extract<PlanNode, { kind: 'projection' }>;

export function projectionFactory(node: ProjectionNode, child: ExecFactory): ExecFactory {
  const evals = node.exprs.map((e) => compileExpr(e, node.child.schema, 'field list'));
  return (ctx, want) => new ProjectionExec(ctx, child(ctx, want), evals);
}

class ProjectionExec implements Executor {
  constructor(
    private readonly ctx: ExecContext,
    private readonly child: Executor,
    private readonly evals: readonly Evaluator[],
  ) {}

  async next(): Promise<Row[] | null> {
    const batch = await this.child.next();
    if (batch === null) return null;
    const n = this.evals.length;
    const out = new Array<Row>(batch.length);
    for (let r = 0; r < batch.length; r++) {
      const input = batch[r] as Row;
      const row = new Array<Value>(n);
      for (let i = 0; i < n; i++) row[i] = (this.evals[i] as Evaluator)(input, this.ctx);
      out[r] = row;
    }
    return out;
  }
}
