/**
 * Hash lookup for joins: ON conjuncts `l = r` where `l` reads only the outer (left) side and `r`
 * only the inner (right) side, with both sides numbers or both strings of one collation (keyed by
 * the collation's weight, so 'a' meets 'A' under `_ci`), so that value-key equality is MySQL
 * equality. The inner rows are bucketed by their key values; an
 * outer row only meets its bucket (every ON condition is still checked on each pair).
 */
import { compileExpr, inferType, type Evaluator } from '../expr/index.js';
import type { Expr } from '../parse/index.js';
import type { RowSchema } from '../plan/index.js';
import { isIntegerType, isStringType, typeCollation, type Collation, type ColumnType, type Value } from '../../types/index.js';
import type { ExecContext } from './context.js';
import type { Row } from './executor.js';
import { rowKey } from './value-key.js';

export interface HashKeys {
  readonly outer: readonly Evaluator[];
  readonly inner: readonly Evaluator[];
}

/** The equi-join keys of `on`, or null when no conjunct qualifies. */
export function hashKeys(on: readonly Expr[], left: RowSchema, right: RowSchema): HashKeys | null {
  const outer: Evaluator[] = [];
  const inner: Evaluator[] = [];
  for (const c of on) {
    if (c.kind !== 'binary' || c.op !== '=') continue;
    const pair = sidesOf(c.left, c.right, left, right) ?? sidesOf(c.right, c.left, left, right);
    if (pair === null) continue;
    const coll = stringCollation(pair[0], left);
    outer.push(weighed(compileExpr(pair[0], left, 'on clause'), coll));
    inner.push(weighed(compileExpr(pair[1], right, 'on clause'), coll));
  }
  return outer.length === 0 ? null : { outer, inner };
}

function sidesOf(l: Expr, r: Expr, left: RowSchema, right: RowSchema): [Expr, Expr] | null {
  const lt = typeIn(l, left);
  const rt = typeIn(r, right);
  if (lt === null || rt === null || !compatible(lt, rt)) return null;
  return [l, r];
}

/** The type of `e` if every column it names resolves in `schema` (and it has a column at all). */
function typeIn(e: Expr, schema: RowSchema): ColumnType | null {
  if (e.kind !== 'column') return null;
  try {
    return inferType(e, schema).type;
  } catch {
    return null;
  }
}

/** The `_ci` collation of a string key (null for binary collations and non-strings). */
function stringCollation(e: Expr, schema: RowSchema): Collation | null {
  const t = typeIn(e, schema);
  if (t === null || !isStringType(t)) return null;
  const c = typeCollation(t);
  return c.binary ? null : c;
}

/** String key values replaced by their weight under `coll`. */
function weighed(ev: Evaluator, coll: Collation | null): Evaluator {
  if (coll === null) return ev;
  return (row, ctx) => {
    const v = ev(row, ctx);
    return typeof v === 'string' ? coll.weight(v) : v;
  };
}

function isNumeric(t: ColumnType): boolean {
  return isIntegerType(t) || t.kind === 'decimal' || t.kind === 'double' || t.kind === 'float';
}

function compatible(a: ColumnType, b: ColumnType): boolean {
  if (isNumeric(a) && isNumeric(b)) return true;
  return isStringType(a) && isStringType(b) && typeCollation(a) === typeCollation(b);
}

/** Inner rows bucketed by key; rows with a NULL key can never match and are left out. */
export function buildBuckets(rows: readonly Row[], keys: HashKeys, ctx: ExecContext): Map<string, Row[]> {
  const buckets = new Map<string, Row[]>();
  for (const r of rows) {
    const k = keyOf(keys.inner, r, ctx);
    if (k === null) continue;
    const list = buckets.get(k);
    if (list === undefined) buckets.set(k, [r]);
    else list.push(r);
  }
  return buckets;
}

/** The bucket key of `row`, or null when a key value is NULL. */
export function keyOf(evals: readonly Evaluator[], row: Row, ctx: ExecContext): string | null {
  const values: Value[] = [];
  for (const e of evals) {
    const v = e(row, ctx);
    if (v === null) return null;
    values.push(v);
  }
  return rowKey(values);
}
