/**
 * Nested-loop join (INNER / LEFT / CROSS) over a materialized inner (right) side. Output rows
 * are the left columns then the right columns (hidden handle slots dropped).
 */
import { compileExpr, type Evaluator } from '../expr/index.js';
import type { PlanNode } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { drain, type ExecFactory, type Executor, type Row } from './executor.js';
import { passes } from './selection.js';

type JoinNode = Extract<PlanNode, { kind: 'join' }>;

export function joinFactory(node: JoinNode, left: ExecFactory, right: ExecFactory): ExecFactory {
  const on = node.on.map((c) => compileExpr(c, node.schema, 'on clause'));
  const lw = node.left.schema.width;
  const rw = node.right.schema.width;
  return (ctx) => new JoinExec(ctx, left(ctx, Infinity), right, on, lw, rw, node.joinType === 'left');
}

class JoinExec implements Executor {
  private inner: Row[] | null = null;

  constructor(
    private readonly ctx: ExecContext,
    private readonly outer: Executor,
    private readonly innerFactory: ExecFactory,
    private readonly on: readonly Evaluator[],
    private readonly lw: number,
    private readonly rw: number,
    private readonly leftJoin: boolean,
  ) {}

  async next(): Promise<Row[] | null> {
    this.inner ??= await drain(this.innerFactory(this.ctx, Infinity));
    for (;;) {
      const batch = await this.outer.next();
      if (batch === null) return null;
      const out: Row[] = [];
      for (const l of batch) this.joinRow(l, out);
      if (out.length > 0) return out;
    }
  }

  private joinRow(l: Row, out: Row[]): void {
    let matched = false;
    for (const r of this.inner as Row[]) {
      const row = combine(l, this.lw, r, this.rw);
      if (!passes(this.on, row, this.ctx)) continue;
      matched = true;
      out.push(row);
    }
    if (!matched && this.leftJoin) out.push(combine(l, this.lw, null, this.rw));
  }
}

function combine(l: Row, lw: number, r: Row | null, rw: number): Row {
  const row = new Array<Value>(lw + rw);
  for (let i = 0; i < lw; i++) row[i] = l[i] ?? null;
  for (let i = 0; i < rw; i++) row[lw + i] = r === null ? null : (r[i] ?? null);
  return row;
}
