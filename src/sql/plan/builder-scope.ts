/**
 * What planning one query block needs besides its statement: the catalog snapshot, the
 * enclosing query's columns (correlated references become parameter slots filled per outer
 * row by an Apply), the WITH names in scope, and statement-wide counters.
 */
import type { Schema } from '../../catalog/index.js';
import type { Expr, SelectStmt } from '../parse/index.js';
import type { RowSchema } from './row-schema.js';
import { exprKey } from './expr-utils.js';

/** Statement-wide counters: parameter slots for outer references, ids of recursive CTEs. */
export interface PlanCounters {
  nextParam: number;
  nextCte: number;
  nextHidden: number;
}

/** A WITH definition: planned afresh at each reference, or the working table of a recursive CTE being planned. */
export type CteDef =
  | { readonly kind: 'query'; readonly name: string; readonly columns?: readonly string[]; readonly query: SelectStmt; readonly scope: PlanScope; readonly recursive: boolean }
  | { readonly kind: 'working'; readonly name: string; readonly id: number; readonly schema: RowSchema; refs: number };

/**
 * The columns of the query block enclosing a subquery. A reference the subquery cannot resolve
 * itself is looked up here: found in `schema`, it becomes a parameter slot recorded in `refs`
 * (the Apply evaluates `expr` per outer row); otherwise the lookup continues outwards.
 */
export class OuterBinding {
  readonly refs: Array<{ expr: Expr; param: number }> = [];
  private readonly byKey = new Map<string, Expr>();

  constructor(
    private readonly schema: RowSchema,
    private readonly parent: OuterBinding | null,
    private readonly counters: PlanCounters,
  ) {}

  resolve(ref: Extract<Expr, { kind: 'column' }>): Expr | undefined {
    let offset: number;
    try {
      offset = this.schema.indexOf(ref);
    } catch {
      offset = 0; // ambiguous: let the outer query's compilation report it
    }
    if (offset < 0) return this.parent?.resolve(ref);
    const key = exprKey(ref);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const col = this.schema.columns[offset];
    const param = this.counters.nextParam++;
    this.refs.push({ expr: ref, param });
    // The cast only carries the column's type to type inference (the value already has it).
    const type = col?.type;
    const slot: Expr = { kind: 'param', index: param };
    const bound: Expr = type === undefined || type.kind === 'json' || type.kind === 'null' ? slot : { kind: 'cast', expr: slot, to: type };
    this.byKey.set(key, bound);
    return bound;
  }
}

export class PlanScope {
  constructor(
    readonly schema: Schema,
    readonly currentDb: string | null,
    readonly counters: PlanCounters,
    /** Set while planning a subquery: how its outer references resolve. */
    readonly binding: OuterBinding | null,
    private readonly ctes: ReadonlyMap<string, CteDef>,
  ) {}

  static root(schema: Schema, currentDb: string | null, stmt: unknown): PlanScope {
    const counters: PlanCounters = { nextParam: maxParamIndex(stmt) + 1, nextCte: 0, nextHidden: 0 };
    return new PlanScope(schema, currentDb, counters, null, new Map());
  }

  withBinding(binding: OuterBinding | null): PlanScope {
    return new PlanScope(this.schema, this.currentDb, this.counters, binding, this.ctes);
  }

  withCte(def: CteDef): PlanScope {
    const ctes = new Map(this.ctes);
    ctes.set(def.name, def);
    return new PlanScope(this.schema, this.currentDb, this.counters, this.binding, ctes);
  }

  /** The scope of a view's query: its own database, nothing from the query that names it. */
  forView(db: string): PlanScope {
    return new PlanScope(this.schema, db, this.counters, null, new Map());
  }

  /** The CTE an unqualified table name refers to (CTE names compare case-sensitively, like tables). */
  cte(name: string): CteDef | undefined {
    return this.ctes.get(name);
  }
}

/** The highest `param` index anywhere in the statement (-1 if none): slots above it are free. */
export function maxParamIndex(node: unknown): number {
  let max = -1;
  const visit = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const o = v as Record<string, unknown>;
    if (o['kind'] === 'param' && typeof o['index'] === 'number') max = Math.max(max, o['index']);
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (typeof x === 'object' && x !== null && !(x instanceof Uint8Array)) visit(x);
    }
  };
  visit(node);
  return max;
}
