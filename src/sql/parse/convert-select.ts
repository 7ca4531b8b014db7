/** node-sql-parser SELECT -> ast.ts `SelectStmt`. */
import type { CommonTableExpr, Expr, FromItem, Limit, SelectItem, SelectStmt, WithClause } from './ast.js';
import type { ConvCtx } from './conv-context.js';
import { columnName, convertExpr, convertExprs, convertOrderBy, subqueryHook, windowConv } from './convert-expr.js';
import { arr, isObj, obj, objs, str, typeOf, type Obj } from './guards.js';
import { SqlError } from '../../errors/index.js';
import { notSupported } from './parse-error.js';
import { windowClause } from './convert-window.js';
import type { ItemExtent } from './select-lists.js';
import { splitDerivedAlias } from './derived-columns-rewrite.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function convertSelect(node: Obj, ctx: ConvCtx): SelectStmt {
  const withClause = convertWith(node, ctx);
  const body = convertUnion(node, ctx);
  return withClause === undefined ? body : { ...body, with: withClause };
}

/** WITH [RECURSIVE] name [(cols)] AS (select), ... (converted before the main select, in text order). */
function convertWith(node: Obj, ctx: ConvCtx): WithClause | undefined {
  const list = objs(arr(node, 'with'));
  if (list.length === 0) return undefined;
  let recursive = false;
  const ctes: CommonTableExpr[] = list.map((w) => {
    if (w['recursive'] === true) recursive = true;
    const nameNode = w['name'];
    const name = typeof nameNode === 'string' ? nameNode : isObj(nameNode) ? String(nameNode['value'] ?? '') : '';
    const stmt = obj(w, 'stmt');
    const ast = stmt ? obj(stmt, 'ast') : undefined;
    if (ast === undefined || name === '') throw notSupported('WITH');
    const columns = objs(arr(w, 'columns')).map((c) => columnName(c));
    const query = convertSelect(ast, ctx);
    return columns.length > 0 ? { name, columns, query } : { name, query };
  });
  return { recursive, ctes };
}

function convertUnion(node: Obj, ctx: ConvCtx): SelectStmt {
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
  // A parenthesized first member's own ORDER BY only matters with its LIMIT: it then reads as a derived table.
  const firstRest = first.limit === undefined ? { ...first, orderBy: [] } : wrapDerived(first);
  const out: Mutable<SelectStmt> = { ...firstRest, union };
  const wholeOrder = arr(node, '_orderby');
  if (wholeOrder.length > 0 || isObj(node['_limit'])) {
    // `... UNION (SELECT ...) ORDER BY ... LIMIT ...`: the trailing clauses apply to the whole.
    out.orderBy = ctx.restrict(() => convertOrderBy(wholeOrder, ctx));
    const limit = convertLimit(node['_limit'], ctx);
    if (limit) out.limit = limit;
    return out;
  }
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

/** `SELECT * FROM (q) AS <synthetic>`: keeps q's ORDER BY / LIMIT inside a UNION's first member. */
function wrapDerived(q: SelectStmt): SelectStmt {
  return { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: { kind: 'derived', query: q, alias: '\u0000union' }, groupBy: [], orderBy: [] };
}

subqueryHook.convert = convertSelect;

function convertOne(node: Obj, ctx: ConvCtx): SelectStmt {
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
  if (isObj(node['window'])) out.windows = windowClause(node['window'], windowConv(ctx));
  const limit = convertLimit(node['limit'], ctx);
  if (limit) out.limit = limit;
  if (arr(node, 'options').some((o) => String(o).toUpperCase() === 'SQL_CALC_FOUND_ROWS')) out.calcFoundRows = true;
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
  const nested = item['expr'];
  // A parenthesized join, `a LEFT JOIN (b JOIN c ON ...) ON ...`: its items come as a list.
  if (Array.isArray(nested)) return convertFrom(nested, ctx) ?? notSupportedFrom();
  const expr = obj(item, 'expr');
  const alias = str(item, 'as') ?? undefined;
  if (expr && isObj(expr['ast'])) {
    if (!alias) throw SqlError.of('ER_DERIVED_MUST_HAVE_ALIAS');
    const lateral = (str(item, 'prefix') ?? '').toUpperCase() === 'LATERAL';
    const named = splitDerivedAlias(alias);
    const query = convertSelect(expr['ast'], ctx);
    return { kind: 'derived', query, alias: named.alias, ...(named.columns ? { columns: named.columns } : {}), ...(lateral ? { lateral } : {}) };
  }
  const name = str(item, 'table');
  if (name === undefined) throw notSupported('table expression');
  const db = str(item, 'db') ?? undefined;
  return { kind: 'table', table: db ? { db, name } : { name }, ...(alias ? { alias } : {}) };
}

function notSupportedFrom(): never {
  throw notSupported('empty table expression');
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
