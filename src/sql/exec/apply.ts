/**
 * Apply: for each input row, the value of every subquery of the node is appended as a hidden
 * column. An uncorrelated subquery runs once per execution (on first need); a correlated one
 * runs with its outer values bound to parameter slots, its results memoized per distinct
 * binding. Scalar: NULL for no row, 1242 for more than one; EXISTS: 1/0; IN / ANY / ALL:
 * subquery-eval.ts.
 */
import { combine, compileExpr, deriveCollation, type Evaluator } from '../expr/index.js';
import { RowSchema, type PlanNode, type SubqueryPlan } from '../plan/index.js';
import { SqlError } from '../../errors/index.js';
import { isBinaryType, isStringType, typeCollation, type Collation, type Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import { drain, type ExecFactory, type Executor, type Row } from './executor.js';
import { SubqueryRows } from './subquery-eval.js';
import { withParams } from './subquery-context.js';
import { rowKey } from './value-key.js';

type ApplyNode = Extract<PlanNode, { kind: 'apply' }>;
type Result = Value | SubqueryRows;

/** Distinct outer bindings remembered per subquery before the memo starts over. */
const MEMO_LIMIT = 4096;

export interface CompiledSubquery {
  readonly sub: SubqueryPlan;
  readonly factory: ExecFactory;
  readonly outer: readonly Evaluator[];
  readonly params: readonly number[];
  readonly probe: readonly Evaluator[];
  /** Per probe column: the collation the probe and the subquery's column compare under. */
  readonly colls: readonly Collation[];
}

export function applyFactory(node: ApplyNode, child: ExecFactory, build: (p: PlanNode) => ExecFactory): ExecFactory {
  const w = node.child.schema.width;
  const subs = compileSubqueries(node.subqueries, node.schema, w, build);
  return (ctx, want) => {
    const runner = new SubqueryRunner(ctx, subs, w);
    const input = child(ctx, want);
    return { next: () => applyBatch(input, runner) };
  };
}

/** Compiles subqueries whose inputs are the first `width` columns of `schema` (then their own hidden columns). */
export function compileSubqueries(subqueries: readonly SubqueryPlan[], schema: RowSchema, width: number, build: (p: PlanNode) => ExecFactory): CompiledSubquery[] {
  const inputSchema = new RowSchema(schema.columns.slice(0, width));
  return subqueries.map((sub, i): CompiledSubquery => {
    const input = new RowSchema(schema.columns.slice(0, width + i));
    const probes = sub.probe === null ? [] : sub.probe.kind === 'row' ? sub.probe.items : [sub.probe];
    return {
      sub,
      factory: build(sub.plan),
      outer: sub.outer.map((o) => compileExpr(o.expr, inputSchema, 'where clause')),
      params: sub.outer.map((o) => o.param),
      probe: probes.map((p) => compileExpr(p, input, 'where clause')),
      colls: probes.map((p, k) => probeCollation(p, input, sub.plan.schema.columns[k]?.type)),
    };
  });
}

/** A probe compared with the subquery's column of type `t` (a column's derivation: IMPLICIT). */
function probeCollation(p: Parameters<typeof compileExpr>[0], input: RowSchema, t: Parameters<typeof typeCollation>[0] | undefined): Collation {
  const left = deriveCollation(p, input);
  if (t === undefined || !(isStringType(t) || isBinaryType(t))) return left.collation;
  return combine(left, { collation: typeCollation(t), coercibility: 2 }, 'in', false).collation;
}

async function applyBatch(input: Executor, runner: SubqueryRunner): Promise<Row[] | null> {
  const batch = await input.next();
  if (batch === null) return null;
  const out = new Array<Row>(batch.length);
  for (let r = 0; r < batch.length; r++) out[r] = await runner.extend(batch[r] as Row);
  return out;
}

/** Computes the hidden subquery columns of rows, within one statement execution. */
export class SubqueryRunner {
  private readonly memos: Array<Map<string, Result>>;

  constructor(
    private readonly ctx: ExecContext,
    private readonly subs: readonly CompiledSubquery[],
    private readonly width: number,
  ) {
    this.memos = subs.map(() => new Map());
  }

  /** The first `width` values of `input` followed by one value per subquery. */
  async extend(input: readonly Value[]): Promise<Row> {
    const row = new Array<Value>(this.width + this.subs.length);
    for (let i = 0; i < this.width; i++) row[i] = input[i] ?? null;
    for (let s = 0; s < this.subs.length; s++) row[this.width + s] = await this.value(s, row);
    return row;
  }

  private async value(s: number, row: Row): Promise<Value> {
    const c = this.subs[s] as CompiledSubquery;
    const result = await this.result(s, c, row);
    const sub = c.sub;
    if (sub.mode === 'scalar') return result as Value;
    if (sub.mode === 'exists') return (result === 1n) !== sub.not ? 1n : 0n;
    const probe = c.probe.map((e) => e(row, this.ctx));
    const v = (result as SubqueryRows).quantified(probe, sub.cmp ?? '=', sub.all ?? false);
    if (!sub.not || v === null) return v;
    return v === 1n ? 0n : 1n;
  }

  private async result(s: number, c: CompiledSubquery, row: Row): Promise<Result> {
    const memo = this.memos[s] as Map<string, Result>;
    let ctx = this.ctx;
    let key = '';
    if (c.outer.length > 0) {
      const values = c.outer.map((e) => e(row, this.ctx));
      key = rowKey(values);
      const params = this.ctx.params.slice();
      c.params.forEach((p, i) => {
        while (params.length < p) params.push(null);
        params[p] = values[i] ?? null;
      });
      ctx = withParams(this.ctx, params);
    }
    const known = memo.get(key);
    if (known !== undefined) return known;
    const result = await run(c, ctx);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, result);
    return result;
  }
}

async function run(c: CompiledSubquery, ctx: ExecContext): Promise<Result> {
  switch (c.sub.mode) {
    case 'exists':
      return (await c.factory(ctx, 1).next()) === null ? 0n : 1n;
    case 'in':
      return new SubqueryRows(await drain(c.factory(ctx, Infinity)), c.colls);
    case 'scalar':
      return scalar(c.factory(ctx, 2));
  }
}

async function scalar(ex: Executor): Promise<Value> {
  let value: Value = null;
  let seen = 0;
  for (let b = await ex.next(); b !== null; b = await ex.next()) {
    for (const r of b) {
      if (++seen > 1) throw SqlError.of('ER_SUBQUERY_NO_1_ROW');
      value = r[0] ?? null;
    }
  }
  return value;
}
