/**
 * Join with a LATERAL derived table on the right (`a [LEFT] JOIN LATERAL (SELECT ... a.x ...) d
 * ON ...`, `a, LATERAL (...) d`): for each left row the right side runs with the left values it
 * reads bound to parameter slots; its rows are memoized per distinct binding. Nested loops; a
 * LEFT join NULL-extends left rows without a match.
 */
import { compileExpr, type Evaluator } from '../expr/index.js';
import type { PlanNode } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { drain, type ExecFactory, type Executor, type Row } from './executor.js';
import { passes } from './selection.js';
import { withParams } from './subquery-context.js';
import { rowKey } from './value-key.js';

type JoinNode = Extract<PlanNode, { kind: 'join' }>;

/** Distinct left bindings whose right rows are remembered before the memo starts over. */
const MEMO_LIMIT = 1024;

interface RightRows {
  readonly rows: readonly Row[];
  readonly ctx: ExecContext;
}

interface Compiled {
  readonly on: readonly Evaluator[];
  readonly outer: readonly Evaluator[];
  readonly params: readonly number[];
  readonly lw: number;
  readonly rw: number;
  readonly leftJoin: boolean;
}

export function lateralJoinFactory(node: JoinNode, left: ExecFactory, right: ExecFactory): ExecFactory {
  const refs = node.lateral ?? [];
  const c: Compiled = {
    on: node.on.map((e) => compileExpr(e, node.schema, 'on clause')),
    outer: refs.map((r) => compileExpr(r.expr, node.left.schema, 'from clause')),
    params: refs.map((r) => r.param),
    lw: node.left.schema.width,
    rw: node.right.schema.width,
    leftJoin: node.joinType === 'left',
  };
  return (ctx) => new LateralJoinExec(ctx, left(ctx, Infinity), right, c);
}

class LateralJoinExec implements Executor {
  private readonly memo = new Map<string, RightRows>();

  constructor(
    private readonly ctx: ExecContext,
    private readonly input: Executor,
    private readonly right: ExecFactory,
    private readonly c: Compiled,
  ) {}

  async next(): Promise<Row[] | null> {
    for (;;) {
      const batch = await this.input.next();
      if (batch === null) return null;
      const out: Row[] = [];
      for (const l of batch) await this.joinRow(l, out);
      if (out.length > 0) return out;
    }
  }

  private async joinRow(l: Row, out: Row[]): Promise<void> {
    const { lw, rw } = this.c;
    let matched = false;
    const right = await this.rightRows(l);
    for (const r of right.rows) {
      const row = combine(l, lw, r, rw);
      if (!passes(this.c.on, row, right.ctx)) continue;
      matched = true;
      out.push(row);
    }
    if (!matched && this.c.leftJoin) out.push(combine(l, lw, null, rw));
  }

  /** The right rows for left row `l`, and the context binding its values (ON may read them too). */
  private async rightRows(l: Row): Promise<RightRows> {
    const values = this.c.outer.map((e) => e(l, this.ctx));
    const key = rowKey(values);
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const params = this.ctx.params.slice();
    this.c.params.forEach((p, i) => {
      while (params.length < p) params.push(null);
      params[p] = values[i] ?? null;
    });
    const ctx = withParams(this.ctx, params);
    const result = { rows: await drain(this.right(ctx, Infinity)), ctx };
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, result);
    return result;
  }
}

function combine(l: Row, lw: number, r: Row | null, rw: number): Row {
  const row = new Array<Value>(lw + rw);
  for (let i = 0; i < lw; i++) row[i] = l[i] ?? null;
  for (let i = 0; i < rw; i++) row[lw + i] = r === null ? null : (r[i] ?? null);
  return row;
}
