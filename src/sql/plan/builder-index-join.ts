/**
 * Index join planning: when the inner side of an INNER / LEFT join is a base table and ON has
 * equalities `inner.col = <expr over outer columns>` on the int handle, the leading columns of a
 * common-handle primary key or the leading columns of a public secondary index, the inner side
 * is read per batch of outer rows by those key values (exec/index-join.ts) instead of being
 * materialized whole. Planned once; the executor only binds the outer values. The handle wins
 * over an index pinning as many columns; otherwise the candidate pinning the most columns.
 */
import type { TableInfo } from '../../catalog/index.js';
import type { Expr } from '../parse/index.js';
import { inferType } from '../expr/index.js';
import { isIntegerType, isStringType, typeCollation, type ColumnType } from '../../types/index.js';
import type { IndexJoinSpec, KeyColumn } from './nodes.js';
import type { RowSchema } from './row-schema.js';
import { someExpr } from './expr-utils.js';
import { handleColumns, indexKeyColumns, readableIndexes } from './key-columns.js';
import { isVirtualTable } from './info-schema.js';

export interface IndexJoinInput {
  readonly table: TableInfo;
  readonly alias: string;
  readonly inner: RowSchema;
  readonly outer: RowSchema;
  readonly on: readonly Expr[];
  /** The inner table's own (pushed-down WHERE) conditions, over `inner`. */
  readonly conds: readonly Expr[];
  readonly lock: boolean;
}

/** The index join of `i`, or null when no key of the inner table is pinned by ON equalities. */
export function planIndexJoin(i: IndexJoinInput): IndexJoinSpec | null {
  if (isVirtualTable(i.table)) return null;
  const eqs = equalities(i);
  if (eqs.size === 0) return null;
  let best: { index: IndexJoinSpec['index']; cols: KeyColumn[]; keys: Expr[] } | null = null;
  const handle = handleColumns(i.table);
  const cands: Array<{ index: IndexJoinSpec['index']; columns: KeyColumn[] }> = [];
  if (handle.length > 0) cands.push({ index: null, columns: handle });
  for (const index of readableIndexes(i.table)) cands.push({ index, columns: indexKeyColumns(i.table, index) });
  for (const c of cands) {
    const cols: KeyColumn[] = [];
    const keys: Expr[] = [];
    for (const col of c.columns) {
      const k = eqs.get(col.offset);
      if (k === undefined || !compatible(col.type, k.type)) break;
      cols.push(col);
      keys.push(k.expr);
    }
    if (cols.length > 0 && (best === null || cols.length > best.cols.length)) best = { index: c.index, cols, keys };
  }
  if (best === null) return null;
  const needed = i.table.columns.map((_, n) => n);
  return { table: i.table, alias: i.alias, needed, lock: i.lock, index: best.index, columns: best.cols, outerKeys: best.keys, conds: i.conds };
}

/** Inner column offset -> the outer expression ON equates it with (first one wins). */
function equalities(i: IndexJoinInput): Map<number, { expr: Expr; type: ColumnType }> {
  const out = new Map<number, { expr: Expr; type: ColumnType }>();
  for (const c of i.on) {
    if (c.kind !== 'binary' || c.op !== '=') continue;
    const pair = sides(c.left, c.right, i) ?? sides(c.right, c.left, i);
    if (pair !== null && !out.has(pair.offset)) out.set(pair.offset, { expr: pair.expr, type: pair.type });
  }
  return out;
}

function sides(col: Expr, other: Expr, i: IndexJoinInput): { offset: number; expr: Expr; type: ColumnType } | null {
  if (col.kind !== 'column' || indexIn(i.outer, col) >= 0) return null;
  const offset = indexIn(i.inner, col);
  if (offset < 0 || offset >= i.table.columns.length) return null;
  if (!someExpr(other, (x) => x.kind === 'column')) return null;
  if (someExpr(other, (x) => !SIMPLE.has(x.kind) || (x.kind === 'column' && (indexIn(i.outer, x) < 0 || indexIn(i.inner, x) >= 0)))) return null;
  try {
    return { offset, expr: other, type: inferType(other, i.outer).type };
  } catch {
    return null;
  }
}

/** Deterministic expression kinds an outer key may be built of. */
const SIMPLE: ReadonlySet<string> = new Set(['column', 'literal', 'param', 'binary', 'unary', 'cast']);

function indexIn(schema: RowSchema, x: Extract<Expr, { kind: 'column' }>): number {
  if ((x.table ?? '').startsWith('\u0000')) return -1;
  try {
    return schema.indexOf(x);
  } catch {
    return -1;
  }
}

function isNumeric(t: ColumnType): boolean {
  return isIntegerType(t) || t.kind === 'decimal' || t.kind === 'double' || t.kind === 'float';
}

/** Key and outer value compare like key order: both numbers, or strings of one collation. */
function compatible(key: ColumnType, outer: ColumnType): boolean {
  if (isIntegerType(key)) return isNumeric(outer);
  if (isNumeric(key)) return isNumeric(outer);
  return isStringType(key) && isStringType(outer) && typeCollation(key) === typeCollation(outer);
}
