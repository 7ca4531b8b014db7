/**
 * Window functions: `resolveWindows` (before anything else is planned) replaces `OVER w` by the
 * WINDOW clause's spec and refuses window functions outside the select list and ORDER BY;
 * `buildWindows` (after aggregation and HAVING, before ORDER BY / LIMIT / DISTINCT) adds one
 * Window node per distinct PARTITION BY + ORDER BY, each appending its functions' values as
 * columns, and rewrites the select list and ORDER BY to read those columns.
 */
import type { Expr, SelectItem, SelectStmt, WindowExpr, WindowFrame, WindowSpec } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { inferType } from '../expr/index.js';
import { isIntegerType, isTemporalType, makeType } from '../../types/index.js';
import type { PlanNode, SortItem, WindowFunc } from './nodes.js';
import { AGG_TABLE, RowSchema, positionRef, type SchemaColumn } from './row-schema.js';
import { exprKey, isConstExpr, mapExpr, someExpr } from './expr-utils.js';

const UNNAMED = '<unnamed window>';

function isWindow(e: Expr): e is WindowExpr {
  return e.kind === 'window';
}

function hasWindow(e: Expr): boolean {
  return someExpr(e, isWindow);
}

function firstWindow(e: Expr): WindowExpr | undefined {
  let found: WindowExpr | undefined;
  someExpr(e, (x) => {
    if (found === undefined && isWindow(x)) found = x;
    return found !== undefined;
  });
  return found;
}

function refuse(w: WindowExpr): SqlError {
  return SqlError.of('ER_WINDOW_INVALID_WINDOW_FUNC_USE', w.name.toLowerCase());
}

/** Resolves named windows and checks where window functions appear; returns `stmt` when it has none. */
export function resolveWindows(stmt: SelectStmt): SelectStmt {
  const itemExprs = stmt.items.flatMap((i) => (i.kind === 'expr' ? [i.expr] : []));
  const named = namedWindows(stmt);
  const inWhere = [stmt.where, ...stmt.groupBy, stmt.having].flatMap((e) => (e === undefined ? [] : [firstWindow(e)]));
  const misplaced = inWhere.find((w) => w !== undefined);
  if (misplaced !== undefined) throw refuse(misplaced);
  if (!itemExprs.some(hasWindow) && !stmt.orderBy.some((o) => hasWindow(o.expr))) return stmt;
  checkAliasUse(stmt);
  const resolve = (e: Expr): Expr => mapExpr(e, (x) => (isWindow(x) ? resolveCall(x, named) : undefined));
  const items: SelectItem[] = stmt.items.map((i) => (i.kind === 'expr' ? { ...i, expr: resolve(i.expr) } : i));
  return { ...stmt, items, orderBy: stmt.orderBy.map((o) => ({ ...o, expr: resolve(o.expr) })) };
}

/** The WINDOW clause, each entry with the windows it extends merged in (3579-3583). */
function namedWindows(stmt: SelectStmt): Map<string, WindowSpec> {
  const raw = new Map<string, WindowSpec>();
  for (const w of stmt.windows ?? []) {
    const key = w.name.toLowerCase();
    if (raw.has(key)) throw SqlError.of('ER_WINDOW_DUPLICATE_NAME', w.name);
    raw.set(key, w.spec);
  }
  const out = new Map<string, WindowSpec>();
  const visiting = new Set<string>();
  const resolve = (name: string): WindowSpec => {
    const key = name.toLowerCase();
    const done = out.get(key);
    if (done !== undefined) return done;
    const spec = raw.get(key);
    if (spec === undefined) throw SqlError.of('ER_WINDOW_NO_SUCH_WINDOW', name);
    if (visiting.has(key)) throw SqlError.of('ER_WINDOW_CIRCULARITY_IN_WINDOW_GRAPH');
    visiting.add(key);
    const merged = spec.base === undefined ? spec : inherit(spec, resolve(spec.base), spec.base);
    out.set(key, merged);
    return merged;
  };
  for (const key of raw.keys()) resolve(key);
  return out;
}

/** `(base ORDER BY ... frame)`: the base's partitioning and ordering, this spec's additions. */
function inherit(spec: WindowSpec, base: WindowSpec, baseName: string): WindowSpec {
  if (spec.partitionBy.length > 0) throw SqlError.of('ER_WINDOW_NO_CHILD_PARTITIONING');
  if (base.frame !== undefined) throw SqlError.of('ER_WINDOW_NO_INHERIT_FRAME', baseName);
  if (spec.orderBy.length > 0 && base.orderBy.length > 0) throw SqlError.of('ER_WINDOW_NO_REDEFINE_ORDER_BY', spec.name ?? UNNAMED, baseName);
  return {
    partitionBy: base.partitionBy,
    orderBy: spec.orderBy.length > 0 ? spec.orderBy : base.orderBy,
    ...(spec.frame !== undefined ? { frame: spec.frame } : {}),
    ...(spec.name !== undefined ? { name: spec.name } : {}),
  };
}

function resolveCall(w: WindowExpr, named: ReadonlyMap<string, WindowSpec>): Expr {
  const base = typeof w.over === 'string' ? w.over : w.over.base;
  const found = base === undefined ? undefined : named.get(base.toLowerCase());
  if (base !== undefined && found === undefined) throw SqlError.of('ER_WINDOW_NO_SUCH_WINDOW', base);
  const spec = typeof w.over === 'string' ? (found as WindowSpec) : found === undefined ? w.over : inherit(w.over, found, base as string);
  for (const a of w.args) {
    const inner = firstWindow(a) ?? firstAggWindow(a);
    if (inner !== undefined) throw refuse(inner);
  }
  const inSpec = [...spec.partitionBy, ...spec.orderBy.map((o) => o.expr)].some(hasWindow);
  if (inSpec) throw SqlError.of('ER_WINDOW_NESTED_WINDOW_FUNC_USE_IN_WINDOW_SPEC', spec.name ?? UNNAMED);
  return { ...w, over: spec };
}

/** A window function inside an aggregate's argument (`SUM(ROW_NUMBER() OVER ())`). */
function firstAggWindow(e: Expr): WindowExpr | undefined {
  let found: WindowExpr | undefined;
  someExpr(e, (x) => {
    if (found === undefined && x.kind === 'agg' && x.arg !== null) found = firstWindow(x.arg);
    return found !== undefined;
  });
  return found;
}

/** HAVING / GROUP BY naming the alias of a select item with a window function. */
function checkAliasUse(stmt: SelectStmt): void {
  const aliases = new Set<string>();
  for (const i of stmt.items) if (i.kind === 'expr' && i.alias !== undefined && hasWindow(i.expr)) aliases.add(i.alias.toLowerCase());
  if (aliases.size === 0) return;
  const named = (e: Expr): string | undefined => {
    let hit: string | undefined;
    someExpr(e, (x) => {
      if (hit === undefined && x.kind === 'column' && x.table === undefined && aliases.has(x.name.toLowerCase())) hit = x.name;
      return hit !== undefined;
    });
    return hit;
  };
  for (const g of stmt.groupBy) {
    const hit = named(g);
    if (hit !== undefined) throw SqlError.of('ER_ILLEGAL_REFERENCE', hit, 'reference to window function');
  }
  const hit = stmt.having === undefined ? undefined : named(stmt.having);
  if (hit !== undefined) throw SqlError.of('ER_WINDOW_INVALID_WINDOW_FUNC_ALIAS_USE', hit);
}

export interface WindowStage {
  readonly node: PlanNode;
  readonly exprs: Expr[];
  readonly orders: SortItem[];
}

/** Adds the Window nodes for the window functions of `exprs` and `orders` (already resolved). */
export function buildWindows(child: PlanNode, exprs: readonly Expr[], orders: readonly SortItem[]): WindowStage {
  const calls: WindowExpr[] = [];
  const seen = new Set<string>();
  const collect = (e: Expr): void => {
    someExpr(e, (x) => {
      if (isWindow(x) && !seen.has(exprKey(x))) {
        seen.add(exprKey(x));
        calls.push(x);
      }
      return false;
    });
  };
  exprs.forEach(collect);
  orders.forEach((o) => collect(o.expr));
  if (calls.length === 0) return { node: child, exprs: [...exprs], orders: [...orders] };
  const groups = new Map<string, WindowExpr[]>();
  for (const c of calls) {
    const spec = c.over as WindowSpec;
    const key = exprKey({ kind: 'row', items: [...spec.partitionBy, ...spec.orderBy.map((o) => ({ kind: 'func' as const, name: o.desc ? 'DESC' : 'ASC', args: [o.expr] }))] });
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [c]);
    else list.push(c);
  }
  const refs = new Map<string, Expr>();
  let node = child;
  for (const list of groups.values()) node = windowNode(node, list, refs);
  const rewrite = (e: Expr): Expr => mapExpr(e, (x) => (isWindow(x) ? refs.get(exprKey(x)) : undefined));
  return { node, exprs: exprs.map(rewrite), orders: orders.map((o) => ({ expr: rewrite(o.expr), desc: o.desc })) };
}

function windowNode(child: PlanNode, calls: readonly WindowExpr[], refs: Map<string, Expr>): PlanNode {
  const spec = calls[0]?.over as WindowSpec;
  const orderBy: SortItem[] = spec.orderBy.map((o) => ({ expr: o.expr, desc: o.desc }));
  const cols: SchemaColumn[] = [...child.schema.columns];
  const funcs = calls.map((c) => {
    const f = windowFunc(c, c.over as WindowSpec, child.schema);
    refs.set(exprKey(c), positionRef(cols.length));
    cols.push({ name: `w${cols.length}`, table: AGG_TABLE, db: '', type: f.type, notNull: inferType(c, child.schema).notNull });
    return f;
  });
  return { kind: 'window', schema: new RowSchema(cols), child, partitionBy: spec.partitionBy, orderBy, funcs };
}

function windowFunc(c: WindowExpr, spec: WindowSpec, schema: RowSchema): WindowFunc {
  checkArgs(c);
  const windowName = spec.name ?? UNNAMED;
  const frame = checkFrame(spec, windowName, schema);
  const first = c.args[0];
  const argType = first === undefined ? makeType('bigint') : inferType(first, schema).type;
  return { name: c.name, args: c.args, frame, argType, type: inferType(c, schema).type, windowName };
}

const ARITY: Readonly<Record<string, readonly [number, number]>> = {
  ROW_NUMBER: [0, 0], RANK: [0, 0], DENSE_RANK: [0, 0], PERCENT_RANK: [0, 0], CUME_DIST: [0, 0],
  NTILE: [1, 1], LAG: [1, 3], LEAD: [1, 3], FIRST_VALUE: [1, 1], LAST_VALUE: [1, 1], NTH_VALUE: [2, 2],
};

function checkArgs(c: WindowExpr): void {
  const [min, max] = ARITY[c.name] ?? [c.name === 'COUNT' ? 0 : 1, 1];
  if (c.args.length < min || c.args.length > max) throw SqlError.of('ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT', c.name.toLowerCase());
  const constIndex = c.name === 'NTILE' ? 0 : c.name === 'NTH_VALUE' || c.name === 'LAG' || c.name === 'LEAD' ? 1 : -1;
  const arg = c.args[constIndex];
  if (arg !== undefined && !isConstExpr(arg)) throw SqlError.of('ER_WRONG_ARGUMENTS', c.name.toLowerCase());
}

/** The frame made explicit (MySQL's defaults) and checked (3584-3588). */
function checkFrame(spec: WindowSpec, name: string, schema: RowSchema): WindowFrame {
  const f = spec.frame;
  if (f === undefined) {
    if (spec.orderBy.length > 0) return { unit: 'range', start: { kind: 'unboundedPreceding' }, end: { kind: 'currentRow' } };
    return { unit: 'rows', start: { kind: 'unboundedPreceding' }, end: { kind: 'unboundedFollowing' } };
  }
  if (f.start.kind === 'unboundedFollowing') throw SqlError.of('ER_WINDOW_FRAME_START_ILLEGAL', name);
  if (f.end.kind === 'unboundedPreceding') throw SqlError.of('ER_WINDOW_FRAME_END_ILLEGAL', name);
  const order = ['unboundedPreceding', 'preceding', 'currentRow', 'following', 'unboundedFollowing'];
  if (order.indexOf(f.start.kind) > order.indexOf(f.end.kind)) throw SqlError.of('ER_WINDOW_FRAME_ILLEGAL', name);
  const offsets = [f.start, f.end].flatMap((b) => (b.kind === 'preceding' || b.kind === 'following' ? [b.offset] : []));
  if (offsets.some((o) => !isConstExpr(o.kind === 'interval' ? o.expr : o))) throw SqlError.of('ER_WINDOW_FRAME_ILLEGAL', name);
  if (f.unit === 'range' && offsets.length > 0) {
    const key = spec.orderBy[0];
    const t = key === undefined || spec.orderBy.length !== 1 ? undefined : inferType(key.expr, schema).type;
    if (t === undefined || !(isIntegerType(t) || isTemporalType(t) || ['decimal', 'double', 'float'].includes(t.kind))) {
      throw SqlError.of('ER_WINDOW_RANGE_FRAME_ORDER_TYPE', name);
    }
    const intervals = offsets.filter((o) => o.kind === 'interval').length;
    if (isTemporalType(t) && intervals < offsets.length) throw SqlError.of('ER_WINDOW_RANGE_FRAME_TEMPORAL_TYPE', name);
    if (!isTemporalType(t) && intervals > 0) throw SqlError.of('ER_WINDOW_RANGE_FRAME_NUMERIC_TYPE', name);
  }
  return f;
}
