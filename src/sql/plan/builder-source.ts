/** Builds the row source of one table: fast path or access path, then a Selection. */
import type { TableInfo } from '../../catalog/index.js';
import type { Expr } from '../parse/index.js';
import type { AccessBase, PlanNode } from './nodes.js';
import { chooseAccessPath } from './access-path.js';
import { isVirtualTable } from './info-schema.js';
import { tryPointGet } from './point-get.js';
import { tableSchema, type RowSchema } from './row-schema.js';

export interface TableSourceOptions {
  readonly table: TableInfo;
  readonly alias: string;
  readonly conds: readonly Expr[];
  readonly needed: readonly number[];
  readonly lock: boolean;
  /** PointGet / BatchPointGet allowed (single table, no aggregation). */
  readonly fastPath: boolean;
}

export function buildTableSource(o: TableSourceOptions): PlanNode {
  const schema = tableSchema(o.table, o.alias);
  if (isVirtualTable(o.table)) return withSelection({ kind: 'memTable', schema, table: o.table, alias: o.alias }, o.conds, 'where clause');
  const base: AccessBase = { table: o.table, alias: o.alias, needed: o.needed, lock: o.lock };
  const fast = o.fastPath ? tryPointGet(base, schema, o.conds) : null;
  const path = fast ?? chooseAccessPath(base, schema, o.conds);
  return withSelection(path.node, path.rest, 'where clause');
}

export function withSelection(child: PlanNode, conds: readonly Expr[], clause: SelectionClause): PlanNode {
  if (conds.length === 0) return child;
  return { kind: 'selection', schema: child.schema, child, conditions: conds, clause };
}

export type SelectionClause = 'where clause' | 'having clause' | 'on clause';

/** Every column offset of `schema` referenced by `exprs` (unresolvable names are ignored). */
export function neededColumns(schema: RowSchema, exprs: readonly Expr[], all: boolean): number[] {
  if (all) return schema.columns.map((_, i) => i);
  const out = new Set<number>();
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'column': {
        const i = safeIndex(schema, e);
        if (i >= 0) out.add(i);
        return;
      }
      default:
        forEachChild(e, visit);
    }
  };
  for (const e of exprs) visit(e);
  return [...out].sort((a, b) => a - b);
}

function safeIndex(schema: RowSchema, e: { readonly db?: string; readonly table?: string; readonly name: string }): number {
  try {
    return schema.indexOf(e);
  } catch {
    return -1;
  }
}

function forEachChild(e: Expr, f: (e: Expr) => void): void {
  switch (e.kind) {
    case 'binary':
      f(e.left);
      f(e.right);
      return;
    case 'unary':
      f(e.operand);
      return;
    case 'isNull':
    case 'isBool':
    case 'cast':
    case 'interval':
      f(e.expr);
      return;
    case 'between':
      f(e.expr);
      f(e.low);
      f(e.high);
      return;
    case 'in':
      f(e.expr);
      e.list.forEach(f);
      return;
    case 'like':
      f(e.expr);
      f(e.pattern);
      if (e.escape !== undefined) f(e.escape);
      return;
    case 'func':
      e.args.forEach(f);
      return;
    case 'agg':
      if (e.arg !== null) f(e.arg);
      e.orderBy?.forEach((o) => f(o.expr));
      return;
    case 'case':
      if (e.operand !== undefined) f(e.operand);
      e.whens.forEach((w) => {
        f(w.when);
        f(w.then);
      });
      if (e.else !== undefined) f(e.else);
      return;
    case 'row':
      e.items.forEach(f);
      return;
    case 'window':
      e.args.forEach(f);
      if (typeof e.over !== 'string') {
        e.over.partitionBy.forEach(f);
        e.over.orderBy.forEach((o) => f(o.expr));
      }
      return;
    default:
      return;
  }
}
