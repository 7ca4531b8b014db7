/**
 * Fast path for `INSERT|REPLACE [IGNORE] [INTO] t [(cols)] VALUES (v, ...), (...)` where every
 * value is a literal, `?`, DEFAULT, NULL, TRUE/FALSE or a signed number. sysbench's `prepare`
 * sends 512 KiB statements of this shape; they never reach node-sql-parser.
 */
import type { Expr, InsertStmt } from './ast.js';
import type { Cursor } from './cursor.js';
import { isLiteralToken } from './lexer.js';
import type { SlotPlan } from './slots.js';

const NULL_EXPR: Expr = { kind: 'literal', value: null };
const TRUE_EXPR: Expr = { kind: 'literal', value: 1n };
const FALSE_EXPR: Expr = { kind: 'literal', value: 0n };
const DEFAULT_EXPR: Expr = { kind: 'default' };

/** Returns the statement, or undefined (cursor position unspecified) when the shape does not match. */
export function parseFastInsert(c: Cursor, plan: SlotPlan): InsertStmt | undefined {
  const head = parseInsertHead(c);
  if (head === undefined) return undefined;
  const rows: Expr[][] = [];
  do {
    const row = parseRow(c, plan);
    if (row === undefined) return undefined;
    rows.push(row);
  } while (c.acceptOp(','));
  if (!c.atEnd()) return undefined;
  return { ...head, rows };
}

/** An INSERT without its rows. */
export type InsertHead = Omit<InsertStmt, 'rows'>;

/**
 * `INSERT|REPLACE [IGNORE] [INTO] t [(cols)] VALUES`, consumed up to and including VALUES;
 * undefined when the statement has another shape (SET, SELECT, ...).
 */
export function parseInsertHead(c: Cursor): InsertHead | undefined {
  const verb = c.acceptWord('INSERT', 'REPLACE');
  if (verb === undefined) return undefined;
  const ignore = c.acceptWord('IGNORE') !== undefined;
  c.acceptWord('INTO');
  if (!c.isIdent() || c.isWord('SET', 'SELECT', 'VALUES', 'VALUE')) return undefined;
  const table = c.tableName();
  const columns: string[] = [];
  if (c.acceptOp('(')) {
    if (c.isWord('SELECT')) return undefined;
    do columns.push(c.ident());
    while (c.acceptOp(','));
    c.expectOp(')');
  }
  if (c.acceptWord('VALUES', 'VALUE') === undefined) return undefined;
  return { kind: 'insert', table, columns, ignore, replace: verb === 'REPLACE', onDuplicate: [] };
}

function parseRow(c: Cursor, plan: SlotPlan): Expr[] | undefined {
  if (!c.acceptOp('(')) return undefined;
  const row: Expr[] = [];
  if (c.acceptOp(')')) return row;
  do {
    const v = parseValue(c, plan);
    if (v === undefined) return undefined;
    row.push(v);
  } while (c.acceptOp(','));
  return c.acceptOp(')') ? row : undefined;
}

function parseValue(c: Cursor, plan: SlotPlan): Expr | undefined {
  const t = c.peek();
  if (t === undefined) return undefined;
  if (t.type === 'op' && (t.text === '-' || t.text === '+')) {
    c.next();
    const n = c.peek();
    if (n === undefined || n.type !== 'number') return undefined;
    const inner = parseValue(c, plan);
    if (inner === undefined || t.text === '+') return inner;
    return negate(inner);
  }
  const slot = plan.byToken[c.pos];
  c.next();
  if (slot !== undefined) return { kind: 'param', index: slot.index };
  if (isLiteralToken(t)) return { kind: 'literal', value: t.value };
  if (t.type !== 'word') return undefined;
  const e = keywordValue(t.upper);
  return e === DEFAULT_EXPR && c.isOp('(') ? undefined : e;
}

/** NULL, TRUE, FALSE, DEFAULT (upper-cased) as a row value; DEFAULT followed by `(` is a call, not this. */
export function keywordValue(upper: string): Expr | undefined {
  switch (upper) {
    case 'NULL':
      return NULL_EXPR;
    case 'TRUE':
      return TRUE_EXPR;
    case 'FALSE':
      return FALSE_EXPR;
    case 'DEFAULT':
      return DEFAULT_EXPR;
    default:
      return undefined;
  }
}

/** `-x`: folds numeric literals (MySQL treats `-5` as a literal), otherwise a unary minus. */
export function negate(e: Expr): Expr {
  if (e.kind === 'literal') {
    const v = e.value;
    if (typeof v === 'bigint') return { kind: 'literal', value: -v };
    if (typeof v === 'number') return { kind: 'literal', value: -v };
    if (v !== null && typeof v === 'object' && 'negated' in v) return { kind: 'literal', value: v.negated() };
  }
  return { kind: 'unary', op: '-', operand: e };
}
