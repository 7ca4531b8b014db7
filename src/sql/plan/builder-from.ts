/**
 * FROM clause: no table (one empty row), one table (fast path / access path chosen once the
 * WHERE conjuncts are known), a derived table / CTE, or a join tree (INNER / LEFT / CROSS;
 * RIGHT is a LEFT join with the sides swapped, its output put back in written order). WHERE
 * conjuncts that name only one table not on the NULL-extended side of a LEFT JOIN are pushed
 * down to its reader. A LATERAL derived table (and the inner side of a join whose ON subqueries
 * read the preserved side) is re-run per left row: a join carrying `lateral` parameter slots
 * (exec/lateral-join.ts). An INNER / LEFT join whose inner side is a base table with a key pinned
 * by ON equalities becomes an index join (builder-index-join.ts).
 */
import type { TableInfo } from '../../catalog/index.js';
import type { Expr, FromItem } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { IndexJoinSpec, PlanNode } from './nodes.js';
import { planIndexJoin } from './builder-index-join.js';
import { EMPTY_SCHEMA, positionRef, RowSchema, tableSchema } from './row-schema.js';
import { buildTableSource, withSelection } from './builder-source.js';
import { resolveFromItem, type QueryPlanner } from './builder-derived.js';
import { mapExpr, someExpr, splitConjunction } from './expr-utils.js';
import { applyNode, hasSubquery, SubqueryCollector, type ExtractedSubquery } from './builder-subquery.js';
import { OuterBinding, type PlanScope } from './builder-scope.js';

export interface FromSource {
  readonly schema: RowSchema;
  /** ON conditions with subqueries of joins that only inner joins enclose: evaluated with WHERE. */
  readonly deferred: readonly Expr[];
  build(conds: readonly Expr[], needed: readonly number[], lock: boolean, fastPath: boolean): PlanNode;
}

/** `bindOn` rewrites outer references of ON conditions once the join's columns are known. */
export function buildFrom(from: FromItem | null, scope: PlanScope, plan: QueryPlanner, bindOn: (e: Expr, schema: RowSchema) => Expr): FromSource {
  if (from === null) {
    return {
      schema: EMPTY_SCHEMA,
      deferred: [],
      build: (conds) => withSelection({ kind: 'dual', schema: EMPTY_SCHEMA, rows: 1 }, conds, 'where clause'),
    };
  }
  if (from.kind !== 'join') {
    const leaf = leafOf(from, scope, plan, new Set());
    return { schema: leaf.schema, deferred: [], build: (conds, needed, lock, fastPath) => buildLeaf(leaf, conds, needed, lock, fastPath) };
  }
  const deferred: Expr[] = [];
  const tree = joinTree(from, { scope, plan, aliases: new Set(), bindOn, deferred }, true);
  return { schema: tree.schema, deferred, build: (conds, _needed, lock) => buildJoin(tree, conds, lock) };
}

type Leaf =
  | { readonly kind: 'leaf'; readonly table: TableInfo; readonly alias: string; readonly schema: RowSchema }
  | { readonly kind: 'plan'; readonly plan: PlanNode; readonly alias: string; readonly schema: RowSchema };

type JoinTree =
  | Leaf
  /** Subqueries of an outer join's ON clause, run over the rows of its NULL-extended side. */
  | { readonly kind: 'apply'; readonly child: JoinTree; readonly subs: readonly ExtractedSubquery[]; readonly schema: RowSchema }
  | {
      readonly kind: 'join';
      readonly joinType: 'inner' | 'left' | 'cross';
      readonly left: JoinTree;
      readonly right: JoinTree;
      readonly on: Expr[];
      readonly schema: RowSchema;
      /** RIGHT JOIN: `right` is the preserved side (read first), `left` the NULL-extended one. */
      readonly swapped: boolean;
      /** LATERAL right side: the left values it reads (parameter slots), re-run per left row. */
      readonly lateral?: LateralRefs;
    };

type LateralRefs = ReadonlyArray<{ readonly expr: Expr; readonly param: number }>;

function leafOf(f: Exclude<FromItem, { kind: 'join' }>, scope: PlanScope, plan: QueryPlanner, aliases: Set<string>): Leaf {
  const r = resolveFromItem(f, scope, plan);
  if (aliases.has(r.alias)) throw SqlError.of('ER_NONUNIQ_TABLE', r.alias);
  aliases.add(r.alias);
  if (r.kind === 'table') return { kind: 'leaf', table: r.table, alias: r.alias, schema: tableSchema(r.table, r.alias) };
  return { kind: 'plan', plan: r.plan, alias: r.alias, schema: r.plan.schema };
}

function buildLeaf(leaf: Leaf, conds: readonly Expr[], needed: readonly number[], lock: boolean, fastPath: boolean): PlanNode {
  if (leaf.kind === 'plan') return withSelection(leaf.plan, conds, 'where clause');
  return buildTableSource({ table: leaf.table, alias: leaf.alias, conds, needed, lock, fastPath });
}

interface TreeContext {
  readonly scope: PlanScope;
  readonly plan: QueryPlanner;
  readonly aliases: Set<string>;
  readonly bindOn: (e: Expr, schema: RowSchema) => Expr;
  readonly deferred: Expr[];
}

/** `innerPath`: only inner / cross joins enclose `f`, so its ON conditions may be checked as WHERE conditions. */
function joinTree(f: FromItem, tc: TreeContext, innerPath: boolean): JoinTree {
  if (f.kind !== 'join') return leafOf(f, tc.scope, tc.plan, tc.aliases);
  const outer = f.joinType === 'left' || f.joinType === 'right';
  const left = joinTree(f.left, tc, innerPath && f.joinType !== 'right');
  const { tree: right, lateral } = rightSide(f, left, tc, innerPath && f.joinType !== 'left');
  const schema = left.schema.concat(right.schema);
  const on: Expr[] = [];
  for (const c of splitConjunction(f.on)) {
    if (!outer && innerPath && hasSubquery(c)) tc.deferred.push(c);
    else on.push(c);
  }
  for (const name of f.using ?? []) {
    on.push({ kind: 'binary', op: '=', left: usingRef(left, name), right: usingRef(right, name) });
  }
  const withSub = on.filter(hasSubquery);
  if (withSub.length > 0) return joinWithSubqueries(f.joinType, left, right, on, tc, lateral);
  const bound = on.map((c) => tc.bindOn(c, schema));
  if (f.joinType === 'right') return { kind: 'join', joinType: 'left', left, right, on: bound, schema, swapped: true };
  return { kind: 'join', joinType: f.joinType, left, right, on: bound, schema, swapped: false, ...lateralField(lateral) };
}

/** The right operand of a join; a LATERAL derived table is planned seeing the left side's columns. */
function rightSide(f: Extract<FromItem, { kind: 'join' }>, left: JoinTree, tc: TreeContext, innerPath: boolean): { tree: JoinTree; lateral?: LateralRefs } {
  const r = f.right;
  if (r.kind !== 'derived' || r.lateral !== true) return { tree: joinTree(r, tc, innerPath) };
  const binding = new OuterBinding(left.schema, tc.scope.binding, tc.scope.counters);
  const tree = leafOf(r, tc.scope.withBinding(binding), tc.plan, tc.aliases);
  if (binding.refs.length === 0) return { tree };
  if (f.joinType === 'right') throw SqlError.of('ER_NOT_SUPPORTED_YET', 'RIGHT JOIN LATERAL reading the left side');
  return { tree, lateral: binding.refs };
}

function lateralField(lateral: LateralRefs | undefined): { lateral?: LateralRefs } {
  return lateral === undefined ? {} : { lateral };
}

const OUTER_ON = 'subqueries in an outer join ON clause reading the preserved side';

/**
 * A join whose ON has subqueries (LEFT / RIGHT, or INNER nested in an outer join's NULL-extended
 * side): they run over the inner side's rows (an Apply there). Columns of the preserved side they
 * read become parameter slots: the inner side is then re-run per preserved row, like LATERAL.
 */
function joinWithSubqueries(type: JoinType, left: JoinTree, right: JoinTree, on: readonly Expr[], tc: TreeContext, lateral?: LateralRefs): JoinTree {
  const swapped = type === 'right';
  const inner = swapped ? left : right;
  const preserved = swapped ? right : left;
  const schema = left.schema.concat(right.schema);
  const binding = new OuterBinding(preserved.schema, tc.scope.binding, tc.scope.counters);
  const collector = new SubqueryCollector(tc.scope, inner.schema, tc.plan, binding);
  const rewritten = on.filter(hasSubquery).map((c) => collector.extract(bindPreserved(tc.bindOn(c, schema), inner.schema, binding)));
  const subs = collector.take();
  for (const sub of subs) if (sub.plan.probe !== null && readsOutside(sub.plan.probe, inner.schema)) throw SqlError.of('ER_NOT_SUPPORTED_YET', OUTER_ON);
  const wrapped: JoinTree = { kind: 'apply', child: inner, subs, schema: inner.schema.concat(new RowSchema(subs.map((x) => x.column))) };
  const l = swapped ? wrapped : left;
  const r = swapped ? right : wrapped;
  const full = l.schema.concat(r.schema);
  const bound = [...on.filter((c) => !hasSubquery(c)).map((c) => tc.bindOn(c, full)), ...rewritten];
  const refs = [...(lateral ?? []), ...binding.refs];
  const joinType = type === 'right' ? 'left' : type === 'cross' ? 'inner' : type;
  return { kind: 'join', joinType, left: l, right: r, on: bound, schema: full, swapped, ...lateralField(refs.length > 0 ? refs : undefined) };
}

type JoinType = Extract<FromItem, { kind: 'join' }>['joinType'];

/** Columns of the preserved side (not of `inner`) as the parameter slots `binding` fills per preserved row. */
function bindPreserved(e: Expr, inner: RowSchema, binding: OuterBinding): Expr {
  return mapExpr(e, (x) => {
    if (x.kind !== 'column' || (x.table ?? '').startsWith('\u0000') || refersTo(inner, x)) return undefined;
    return binding.resolve(x) ?? x;
  });
}

/** `e` names a column `schema` lacks (hidden subquery columns aside). */
function readsOutside(e: Expr, schema: RowSchema): boolean {
  return someExpr(e, (x) => x.kind === 'column' && !(x.table ?? '').startsWith('\u0000') && !refersTo(schema, x));
}

function usingRef(t: JoinTree, name: string): Expr {
  const i = t.schema.indexOf({ name });
  const c = t.schema.columns[i];
  if (c === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', name, 'from clause');
  return { kind: 'column', table: c.table, name: c.name };
}

function buildJoin(tree: JoinTree, conds: readonly Expr[], lock: boolean): PlanNode {
  const rest: Expr[] = [];
  const pushed = new Map<string, Expr[]>();
  for (const c of conds) {
    const leaf = pushTarget(tree, c);
    if (leaf === null) rest.push(c);
    else pushed.set(leaf, [...(pushed.get(leaf) ?? []), c]);
  }
  return withSelection(buildTree(tree, pushed, lock), rest, 'where clause');
}

/** The alias of the only table `c` names, if that table's rows may be filtered before joining. */
function pushTarget(tree: JoinTree, c: Expr): string | null {
  const leaves: Array<{ alias: string; schema: RowSchema; nullable: boolean }> = [];
  collectLeaves(tree, false, leaves);
  const hits = leaves.filter((l) => someExpr(c, (x) => x.kind === 'column' && refersTo(l.schema, x)));
  const only = hits[0];
  if (hits.length !== 1 || only === undefined || only.nullable) return null;
  const all = someExpr(c, (x) => x.kind === 'column' && !refersTo(only.schema, x));
  return all ? null : only.alias;
}

function refersTo(schema: RowSchema, x: Extract<Expr, { kind: 'column' }>): boolean {
  try {
    return schema.indexOf(x) >= 0;
  } catch {
    return true;
  }
}

function collectLeaves(t: JoinTree, nullable: boolean, out: Array<{ alias: string; schema: RowSchema; nullable: boolean }>): void {
  if (t.kind === 'apply') {
    collectLeaves(t.child, nullable, out);
    return;
  }
  if (t.kind !== 'join') {
    out.push({ alias: t.alias, schema: t.schema, nullable });
    return;
  }
  const outer = t.joinType === 'left';
  collectLeaves(t.left, nullable || (outer && t.swapped), out);
  collectLeaves(t.right, nullable || (outer && !t.swapped), out);
}

function buildTree(t: JoinTree, pushed: ReadonlyMap<string, Expr[]>, lock: boolean): PlanNode {
  if (t.kind === 'apply') return applyNode(buildTree(t.child, pushed, lock), t.subs);
  if (t.kind !== 'join') {
    const needed = t.kind === 'leaf' ? t.table.columns.map((_, i) => i) : [];
    return buildLeaf(t, pushed.get(t.alias) ?? [], needed, lock, false);
  }
  const left = buildTree(t.left, pushed, lock);
  const right = buildTree(t.right, pushed, lock);
  const joinType = t.joinType === 'cross' && t.on.length > 0 ? 'inner' : t.joinType;
  const ij = t.lateral === undefined && joinType !== 'cross' ? indexJoinOf(t.swapped ? t.left : t.right, t.swapped ? right : left, t.on, pushed, lock) : {};
  if (!t.swapped) return { kind: 'join', schema: t.schema, joinType, left, right, on: t.on, ...lateralField(t.lateral), ...ij };
  // RIGHT JOIN: the right side drives a LEFT join; a projection restores the written column order.
  const schema = right.schema.concat(left.schema);
  const join: PlanNode = { kind: 'join', schema, joinType, left: right, right: left, on: t.on, ...lateralField(t.lateral), ...ij };
  const rw = right.schema.width;
  const lw = left.schema.width;
  const exprs = [...Array.from({ length: lw }, (_, i) => positionRef(rw + i)), ...Array.from({ length: rw }, (_, i) => positionRef(i))];
  return { kind: 'projection', schema: t.schema, child: join, exprs };
}

/** An index join when the inner side is a base table whose key ON pins (builder-index-join.ts). */
function indexJoinOf(inner: JoinTree, outer: PlanNode, on: readonly Expr[], pushed: ReadonlyMap<string, Expr[]>, lock: boolean): { indexJoin?: IndexJoinSpec } {
  if (inner.kind !== 'leaf') return {};
  const conds = pushed.get(inner.alias) ?? [];
  const spec = planIndexJoin({ table: inner.table, alias: inner.alias, inner: inner.schema, outer: outer.schema, on, conds, lock });
  return spec === null ? {} : { indexJoin: spec };
}
