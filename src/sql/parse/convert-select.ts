/** node-sql-parser SELECT -> ast.ts `SelectStmt`. */
import type { Expr, FromItem, Limit, SelectItem, SelectStmt } from './ast.js';
import type { ConvCtx } from './conv-context.js';
import { columnName, convertExpr, convertExprs, convertOrderBy, subqueryHook } from './convert-expr.js';
import { arr, isObj, obj, objs, str, typeOf, type Obj } from './guards.js';
import { notSupported } from './parse-error.js';
import type { ItemExtent } from './select-lists.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function convertSelect(node: Obj, ctx: ConvCtx): SelectStmt {
  const first = convertOne(node, ctx);
  const union: Array<{ all: boolean; select: SelectStmt }> = [];
  let cur: Obj = node;
  let lastNode: Obj = node;
  for (let next = obj(cur, '_next'); next !== undefined; next = obj(cur, '_next')) {
    const op = (str(cur, 'set_op') ?? '').toUpperCase();
    if (!op.startsWith('UNION')) throw notSupported(op || 'set operation');
    union.push({ all: op.includes('ALL'), select: convertOne(next, ctx) });
    cur = next;
    lastNode = next;
  }
  if (union.length === 0) return first;
  const out: Mutable<SelectStmt> = { ...first, union };
  const last = union[union.length - 1];
  if (last && lastNode['parentheses_symbol'] !== true && (last.select.orderBy.length > 0 || last.select.limit)) {
    // Trailing ORDER BY / LIMIT of an unparenthesized last member apply to the whole UNION.
    const { orderBy, limit, ...rest } = last.select;
    union[union.length - 1] = { all: last.all, select: { ...rest, orderBy: [] } };
    out.orderBy = orderBy;
    if (limit) out.limit = limit;
  }
  return out;
}

subqueryHook.convert = convertSelect;

function convertOne(node: Obj, ctx: ConvCtx): SelectStmt {
  if (node['with']) throw notSupported('WITH');
  const texts = ctx.takeSelectList();
  const items = objs(arr(node, 'columns')).map((c, i) => selectItem(c, texts?.[i], ctx));
  const out: Mutable<SelectStmt> = {
    kind: 'select',
    distinct: String(node['distinct'] ?? '').toUpperCase() === 'DISTINCT',
    items,
    from: convertFrom(arr(node, 'from'), ctx),
    groupBy: [],
    orderBy: [],
  };
  if (node['where']) out.where = convertExpr(node['where'], ctx);
  const group = node['groupby'];
  const groupList = isObj(group) ? arr(group, 'columns') : Array.isArray(group) ? (group as unknown[]) : [];
  out.groupBy = ctx.restrict(() => convertExprs(groupList, ctx));
  if (node['having']) out.having = convertExpr(node['having'], ctx);
  out.orderBy = ctx.restrict(() => convertOrderBy(arr(node, 'orderby'), ctx));
  const limit = convertLimit(node['limit'], ctx);
  if (limit) out.limit = limit;
  const lock = String(node['locking_read'] ?? '').toUpperCase();
  if (lock.includes('UPDATE')) out.lock = 'update';
  else if (lock.includes('SHARE')) out.lock = 'share';
  return out;
}

function selectItem(col: Obj, extent: ItemExtent | undefined, ctx: ConvCtx): SelectItem {
  const e = col['expr'];
  if (isObj(e) && typeOf(e) === 'column_ref' && columnName(e) === '*') {
    const table = str(e, 'table');
    return table ? { kind: 'star', table } : { kind: 'star' };
  }
  const alias = str(col, 'as') ?? undefined;
  const expr = alias ? convertExpr(e, ctx) : ctx.restrict(() => convertExpr(e, ctx));
  const text = extent?.text ?? exprText(expr);
  return alias ? { kind: 'expr', expr, alias, text } : { kind: 'expr', expr, text };
}

/** LIMIT n | LIMIT o, n | LIMIT n OFFSET o. */
export function convertLimit(node: unknown, ctx: ConvCtx): Limit | undefined {
  if (!isObj(node)) return undefined;
  const values = convertExprs(arr(node, 'value'), ctx);
  const [a, b] = values;
  if (a === undefined) return undefined;
  const sep = (str(node, 'seperator') ?? '').toLowerCase();
  if (b === undefined) return { count: a };
  return sep === ',' ? { count: b, offset: a } : { count: a, offset: b };
}

export function convertFrom(list: readonly unknown[], ctx: ConvCtx): FromItem | null {
  let acc: FromItem | null = null;
  for (const item of objs(list)) {
    if (typeOf(item) === 'dual') continue;
    const right = fromItem(item, ctx);
    if (acc === null) {
      acc = right;
      continue;
    }
    acc = joinOf(acc, right, item, ctx);
  }
  return acc;
}

function fromItem(item: Obj, ctx: ConvCtx): FromItem {
  const expr = obj(item, 'expr');
  const alias = str(item, 'as') ?? undefined;
  if (expr && isObj(expr['ast'])) {
    if (!alias) throw notSupported('derived table without alias');
    return { kind: 'derived', query: convertSelect(expr['ast'], ctx), alias };
  }
  const name = str(item, 'table');
  if (name === undefined) throw notSupported('table expression');
  const db = str(item, 'db') ?? undefined;
  return { kind: 'table', table: db ? { db, name } : { name }, ...(alias ? { alias } : {}) };
}

function joinOf(left: FromItem, right: FromItem, item: Obj, ctx: ConvCtx): FromItem {
  const j = (str(item, 'join') ?? '').toUpperCase();
  const joinType = j.startsWith('LEFT') ? 'left' : j.startsWith('RIGHT') ? 'right' : j === '' || j.startsWith('CROSS') ? 'cross' : 'inner';
  const using = arr(item, 'using').map((u) => (typeof u === 'string' ? u : isObj(u) ? String(u['value'] ?? '') : ''));
  const on = item['on'] ? convertExpr(item['on'], ctx) : undefined;
  const type = joinType === 'cross' && (on || using.length > 0) ? 'inner' : joinType;
  return { kind: 'join', joinType: type, left, right, ...(on ? { on } : {}), ...(using.length > 0 ? { using } : {}) };
}

/** Fallback label when the token-level item text is unavailable. */
export function exprText(e: Expr): string {
  switch (e.kind) {
    case 'column':
      return e.name;
    case 'variable':
      return (e.scope === 'user' ? '@' : '@@') + e.name;
    case 'literal':
      return String(e.value);
    case 'func':
      return `${e.name}(${e.args.map(exprText).join(',')})`;
    case 'agg':
      return `${e.name}(${e.arg ? exprText(e.arg) : '*'})`;
    default:
      return e.kind;
  }
}
