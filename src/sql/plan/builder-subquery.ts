/**
 * Subqueries inside expressions: each `(SELECT ...)`, `EXISTS (...)`, `x IN (SELECT ...)` and
 * `x op ANY|ALL (SELECT ...)` is planned on its own and replaced by a reference to a hidden
 * column that an Apply node (exec/apply.ts) fills: once per statement run when the subquery is
 * uncorrelated, per input row (with the outer values bound to parameter slots) otherwise.
 */
import type { Expr, SelectStmt } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { makeType } from '../../types/index.js';
import type { PlanNode, SubqueryPlan } from './nodes.js';
import { RowSchema, type SchemaColumn } from './row-schema.js';
import { OuterBinding, type PlanScope } from './builder-scope.js';
import type { QueryPlanner } from './builder-derived.js';
import { exprKey, mapExpr, someExpr } from './expr-utils.js';

/** Synthetic table of the hidden subquery-result columns (cannot be written in SQL). */
export const SUBQUERY_TABLE = '\u0000subquery';

export interface ExtractedSubquery {
  readonly plan: SubqueryPlan;
  readonly column: SchemaColumn;
}

export function hasSubquery(e: Expr): boolean {
  return someExpr(e, (x) => x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'inSubquery');
}

/** Collects the subqueries of one query block, planned against the block's FROM columns. */
export class SubqueryCollector {
  private pending: ExtractedSubquery[] = [];
  /** Identical subqueries of one batch share one hidden column. */
  private readonly seen = new Map<string, Expr>();

  constructor(
    private readonly scope: PlanScope,
    private readonly fromSchema: RowSchema,
    private readonly planner: QueryPlanner,
    /** Where references `fromSchema` cannot resolve go next (default: the block's own outer binding). */
    private readonly parent: OuterBinding | null = scope.binding,
  ) {}

  /** `e` with every subquery replaced by its hidden column. */
  extract(e: Expr): Expr {
    return mapExpr(e, (x) => {
      if (x.kind !== 'subquery' && x.kind !== 'exists' && x.kind !== 'inSubquery') return undefined;
      const key = exprKey(x);
      const known = this.seen.get(key);
      if (known !== undefined) return known;
      const ref = this.extractOne(x);
      this.seen.set(key, ref);
      return ref;
    });
  }

  private extractOne(x: Expr): Expr {
    switch (x.kind) {
      case 'subquery':
        return this.add('scalar', x.query, null, false);
      case 'exists':
        return this.add('exists', x.query, null, x.not);
      case 'inSubquery': {
        const probe = this.extract(x.expr);
        if (probe.kind === 'row' && x.cmp !== undefined && x.cmp !== '=' && x.cmp !== '<>') {
          throw SqlError.of('ER_NOT_SUPPORTED_YET', `row comparison with ${x.cmp} ${x.all === true ? 'ALL' : 'ANY'}`);
        }
        return this.add('in', x.query, probe, x.not, x.cmp, x.all);
      }
      default:
        return x;
    }
  }

  /** `e` with the subqueries already extracted in this batch replaced by their hidden columns (others kept). */
  reuse(e: Expr): Expr {
    return mapExpr(e, (x) => (x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'inSubquery' ? (this.seen.get(exprKey(x)) ?? x) : undefined));
  }

  /** The subqueries extracted since the last call. */
  take(): ExtractedSubquery[] {
    const out = this.pending;
    this.pending = [];
    this.seen.clear();
    return out;
  }

  private add(mode: SubqueryPlan['mode'], query: SelectStmt, probe: Expr | null, not: boolean, cmp?: SubqueryPlan['cmp'], all?: boolean): Expr {
    const binding = new OuterBinding(this.fromSchema, this.parent, this.scope.counters);
    const plan = this.planner(query, this.scope.withBinding(binding));
    const width = plan.schema.width;
    if (mode === 'scalar' && width !== 1) throw SqlError.of('ER_OPERAND_COLUMNS', 1);
    if (mode === 'in') {
      const want = probe?.kind === 'row' ? probe.items.length : 1;
      if (width !== want) throw SqlError.of('ER_OPERAND_COLUMNS', want);
    }
    const name = `sq${this.scope.counters.nextHidden++}`;
    const first = plan.schema.columns[0];
    const type = mode === 'scalar' && first !== undefined ? first.type : makeType('bigint', { length: 1 });
    const column: SchemaColumn = { name, table: SUBQUERY_TABLE, db: '', type, notNull: mode === 'exists' };
    const sub: SubqueryPlan = {
      mode, plan, not, probe, outer: binding.refs,
      ...(cmp !== undefined ? { cmp } : {}), ...(all !== undefined ? { all } : {}),
    };
    this.pending.push({ plan: sub, column });
    return { kind: 'column', table: SUBQUERY_TABLE, name };
  }
}

/** The expressions of `subs` evaluated over the Apply's input (outer values, probes). */
export function subqueryInputs(subs: readonly ExtractedSubquery[]): Expr[] {
  return subs.flatMap((s) => [...s.plan.outer.map((o) => o.expr), ...(s.plan.probe !== null ? [s.plan.probe] : [])]);
}

/** `subs` with their input expressions replaced, in subqueryInputs order (after aggregation). */
export function withInputs(subs: readonly ExtractedSubquery[], inputs: readonly Expr[]): ExtractedSubquery[] {
  let i = 0;
  const next = (): Expr => inputs[i++] as Expr;
  return subs.map((s) => {
    const outer = s.plan.outer.map((o) => ({ expr: next(), param: o.param }));
    const probe = s.plan.probe === null ? null : next();
    return { column: s.column, plan: { ...s.plan, outer, probe } };
  });
}

/** An Apply over `child` appending one hidden column per subquery (child unchanged when none). */
export function applyNode(child: PlanNode, subs: readonly ExtractedSubquery[]): PlanNode {
  if (subs.length === 0) return child;
  const schema = child.schema.concat(new RowSchema(subs.map((s) => s.column)));
  return { kind: 'apply', schema, child, subqueries: subs.map((s) => s.plan) };
}
