/** node-sql-parser INSERT / REPLACE / UPDATE / DELETE -> ast.ts. */
import type { Assignment, DeleteStmt, Expr, InsertStmt, TableName, UpdateStmt } from './ast.js';
import type { ConvCtx } from './conv-context.js';
import { convertExpr, convertExprs, convertOrderBy } from './convert-expr.js';
import { convertLimit, convertSelect } from './convert-select.js';
import { arr, isObj, obj, objs, str, typeOf, type Obj } from './guards.js';
import { notSupported } from './parse-error.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function singleTable(list: readonly unknown[], what: string): { table: TableName; alias?: string } {
  const items = objs(list);
  const t = items[0];
  const name = t ? str(t, 'table') : undefined;
  if (t === undefined || name === undefined || items.length !== 1) throw notSupported(`multi-table ${what}`);
  const db = str(t, 'db') ?? undefined;
  const alias = str(t, 'as') ?? undefined;
  return { table: db ? { db, name } : { name }, ...(alias ? { alias } : {}) };
}

function assignments(list: readonly unknown[], ctx: ConvCtx): Assignment[] {
  return objs(list).map((s) => {
    const table = str(s, 'table') ?? undefined;
    return { column: String(s['column'] ?? ''), value: convertExpr(s['value'], ctx), ...(table ? { table } : {}) };
  });
}

function columnNames(list: readonly unknown[]): string[] {
  return list.map((c) => (typeof c === 'string' ? c : isObj(c) ? String(obj(c, 'expr')?.['value'] ?? c['value'] ?? '') : ''));
}

export function convertInsert(node: Obj, ctx: ConvCtx): InsertStmt {
  const { table } = singleTable(arr(node, 'table'), 'INSERT');
  const prefix = (str(node, 'prefix') ?? '').toUpperCase();
  const out: Mutable<InsertStmt> = {
    kind: 'insert',
    table,
    columns: columnNames(arr(node, 'columns')),
    rows: [],
    ignore: prefix.includes('IGNORE'),
    replace: typeOf(node) === 'replace',
    onDuplicate: [],
  };
  const values = obj(node, 'values');
  const set = arr(node, 'set');
  if (set.length > 0) {
    const a = assignments(set, ctx);
    out.columns = a.map((x) => x.column);
    out.rows = [a.map((x) => x.value)];
  } else if (values && typeOf(values) === 'select') {
    out.select = convertSelect(values, ctx);
  } else if (values) {
    out.rows = objs(arr(values, 'values')).map((row): Expr[] => convertExprs(arr(row, 'value'), ctx));
  } else throw notSupported('INSERT form');
  const dup = obj(node, 'on_duplicate_update');
  if (dup) out.onDuplicate = assignments(arr(dup, 'set'), ctx);
  return out;
}

export function convertUpdate(node: Obj, ctx: ConvCtx): UpdateStmt {
  const { table, alias } = singleTable(arr(node, 'table'), 'UPDATE');
  const out: Mutable<UpdateStmt> = {
    kind: 'update',
    table,
    ...(alias ? { alias } : {}),
    set: assignments(arr(node, 'set'), ctx),
    orderBy: [],
    ignore: false,
  };
  if (node['where']) out.where = convertExpr(node['where'], ctx);
  out.orderBy = ctx.restrict(() => convertOrderBy(arr(node, 'orderby'), ctx));
  const limit = convertLimit(node['limit'], ctx);
  if (limit) out.limit = limit;
  return out;
}

export function convertDelete(node: Obj, ctx: ConvCtx): DeleteStmt {
  const { table, alias } = singleTable(arr(node, 'from'), 'DELETE');
  const out: Mutable<DeleteStmt> = { kind: 'delete', table, ...(alias ? { alias } : {}), orderBy: [] };
  if (node['where']) out.where = convertExpr(node['where'], ctx);
  out.orderBy = ctx.restrict(() => convertOrderBy(arr(node, 'orderby'), ctx));
  const limit = convertLimit(node['limit'], ctx);
  if (limit) out.limit = limit;
  return out;
}
