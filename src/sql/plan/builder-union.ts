/**
 * UNION [ALL | DISTINCT]: every member planned on its own, column names from the first, types
 * merged per column (members cast to them), a DISTINCT union deduplicating everything to its
 * left (MySQL's rule for mixed chains), then ORDER BY / LIMIT over the result columns.
 */
import type { Expr, SelectStmt } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { isStringType, isBinaryType, type ColumnType } from '../../types/index.js';
import { mergeTypes } from '../expr/index.js';
import type { PlanNode, SortItem } from './nodes.js';
import { positionRef, RowSchema, type SchemaColumn } from './row-schema.js';
import { addOrderLimit } from './builder-order.js';
import type { PlanScope } from './builder-scope.js';

export function buildUnion(stmt: SelectStmt, scope: PlanScope, block: (s: SelectStmt, scope: PlanScope) => PlanNode): PlanNode {
  const { union, orderBy, limit, with: _with, ...first } = stmt;
  const members = [{ all: true, select: { ...first, orderBy: [] } as SelectStmt }, ...(union ?? [])];
  const plans = members.map((m) => block(m.select, scope));
  const head = plans[0] as PlanNode;
  const width = head.schema.width;
  if (plans.some((p) => p.schema.width !== width)) throw SqlError.of('ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT');
  const cols: SchemaColumn[] = head.schema.columns.map((c, i) => ({
    name: c.name,
    table: '',
    db: '',
    type: mergeTypes(plans.map((p) => (p.schema.columns[i] as SchemaColumn).type)),
    notNull: plans.every((p) => (p.schema.columns[i] as SchemaColumn).notNull),
  }));
  const schema = new RowSchema(cols);
  let lastDistinct = -1;
  members.forEach((m, i) => {
    if (i > 0 && !m.all) lastDistinct = i;
  });
  const children = plans.map((p) => castToTypes(p, schema));
  const node: PlanNode = { kind: 'union', schema, children, distinctUpTo: lastDistinct + 1 };
  const items: SortItem[] = orderBy.map((o) => ({ expr: unionOrderRef(o.expr, schema), desc: o.desc }));
  return addOrderLimit(node, items, limit);
}

/** ORDER BY of a UNION names result columns (or positions); 1054 in 'order clause' otherwise. */
function unionOrderRef(e: Expr, schema: RowSchema): Expr {
  if (e.kind === 'literal' && typeof e.value === 'bigint') {
    const n = Number(e.value);
    if (n < 1 || n > schema.width) throw SqlError.of('ER_BAD_FIELD_ERROR', String(e.value), 'order clause');
    return positionRef(n - 1);
  }
  if (e.kind === 'column') {
    const i = schema.indexOf({ name: e.name });
    if (i < 0 || e.table !== undefined) {
      throw SqlError.of('ER_BAD_FIELD_ERROR', e.table !== undefined ? `${e.table}.${e.name}` : e.name, 'order clause');
    }
    return positionRef(i);
  }
  return e;
}

/** `p` with each column cast to `target`'s type where they differ (a projection), else `p`. */
export function castToTypes(p: PlanNode, target: RowSchema): PlanNode {
  let differs = false;
  const exprs: Expr[] = p.schema.columns.map((c, i) => {
    const to = (target.columns[i] as SchemaColumn).type;
    if (sameType(c.type, to)) return positionRef(i);
    differs = true;
    return { kind: 'cast', expr: positionRef(i), to: castTarget(to) };
  });
  if (!differs) return p;
  const cols = p.schema.columns.map((c, i) => ({ ...c, type: (target.columns[i] as SchemaColumn).type }));
  return { kind: 'projection', schema: new RowSchema(cols), child: p, exprs };
}

function sameType(a: ColumnType, b: ColumnType): boolean {
  if (a.kind !== b.kind || a.unsigned !== b.unsigned || a.scale !== b.scale) return false;
  return a.kind !== 'decimal' || a.length === b.length;
}

/** Strings are not truncated to the merged display length (it is already the longest). */
function castTarget(t: ColumnType): ColumnType {
  return isStringType(t) || isBinaryType(t) ? { ...t, length: -1 } : t;
}
