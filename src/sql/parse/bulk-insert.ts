/**
 * Large `INSERT|REPLACE ... VALUES (...), (...)` texts read without a token per value.
 *
 * sysbench's `prepare` (and dump files) send statements of hundreds of KiB whose values are
 * plain literals. The lexer would make ~8 Token objects per row only for parseFastInsert to
 * turn them into literal expressions; here the head up to VALUES is tokenized as usual and the
 * rows are scanned straight from the text with the lexer's own literal rules (scanString,
 * scanNumber), giving the same statement parseFastInsert builds.
 *
 * Accepted per value: a quoted string, a number (optionally signed), NULL, TRUE, FALSE,
 * DEFAULT; between them only whitespace, and after the last row whitespace and `;`. Anything
 * else (comments, `?`, hex/bit literals, introducers, expressions, ON DUPLICATE KEY UPDATE, a
 * syntax error) returns undefined and the caller takes the general path, which gives the same
 * result or the exact error it always gave.
 *
 * Example: `INSERT INTO t(k, c) VALUES (5, 'a'), (-2, NULL)` => rows
 * [[lit 5n, lit 'a'], [lit -2n, lit null]].
 */
import type { Expr, InsertStmt } from './ast.js';
import { Cursor } from './cursor.js';
import { keywordValue, negate, parseInsertHead, type InsertHead } from './fast-insert.js';
import { isDigit, isIdentChar, isSpace, scanNumber, scanString, tokenizeInsertHead } from './lexer.js';

/** Shorter statements take the token path and stay eligible for the statement cache's digest. */
export const BULK_MIN_CHARS = 16 * 1024;
/** The head (verb, table, column list) may have at most this many tokens. */
const MAX_HEAD_TOKENS = 4096;

/** The statement, or undefined when `sql` is not a plain literal-rows INSERT (see above). */
export function parseBulkInsert(sql: string): InsertStmt | undefined {
  const head = parseBulkHead(sql);
  if (head === undefined) return undefined;
  const rows = new RowScanner(sql, head.end).rows();
  return rows === undefined ? undefined : { ...head.insert, rows };
}

/** The INSERT up to VALUES (rows still empty) and where its rows start in `sql`. */
export function parseBulkHead(sql: string): { insert: InsertHead; end: number } | undefined {
  const head = tokenizeInsertHead(sql, MAX_HEAD_TOKENS);
  if (head === undefined) return undefined;
  const c = new Cursor(sql, head.tokens);
  const insert = parseInsertHead(c);
  if (insert === undefined || !c.atEnd()) return undefined;
  return { insert, end: head.end };
}

/** Scans `(v, ...), (...)` from `pos`: all rows at once (rows) or one step at a time (bulk-insert-bytes.ts). */
export class RowScanner {
  constructor(
    private readonly s: string,
    public pos: number,
  ) {}

  rows(): Expr[][] | undefined {
    const rows: Expr[][] = [];
    do {
      const row = this.row();
      if (row === undefined) return undefined;
      rows.push(row);
    } while (this.accept(44)); // ,
    return this.restIsEnd() ? rows : undefined;
  }

  /** True when only whitespace and `;` are left (what may follow the last row); skips them. */
  restIsEnd(): boolean {
    while (this.pos < this.s.length && (isSpace(this.s.charCodeAt(this.pos)) || this.s.charCodeAt(this.pos) === 59)) this.pos++;
    return this.pos === this.s.length;
  }

  /** One `(...)` row, or undefined (a value this scanner does not take, or the text ends first). */
  row(): Expr[] | undefined {
    if (!this.accept(40)) return undefined; // (
    const row: Expr[] = [];
    if (this.accept(41)) return row; // )
    do {
      const v = this.value();
      if (v === undefined) return undefined;
      row.push(v);
    } while (this.accept(44));
    return this.accept(41) ? row : undefined;
  }

  /** Skips whitespace; consumes `ch` if it comes next. */
  accept(ch: number): boolean {
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) !== ch) return false;
    this.pos++;
    return true;
  }

  private skipSpace(): void {
    while (isSpace(this.s.charCodeAt(this.pos))) this.pos++;
  }

  private value(): Expr | undefined {
    this.skipSpace();
    const s = this.s;
    const c = s.charCodeAt(this.pos);
    if (c === 39 || c === 34) {
      const str = scanString(s, this.pos);
      if (str === undefined) return undefined;
      this.pos = str.end;
      return { kind: 'literal', value: str.value };
    }
    if (c === 45 || c === 43) return this.signed(c === 45);
    if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(this.pos + 1)))) return this.number();
    return this.word();
  }

  /** `-5`, `+ 5`: a sign and a number (`--` may open a comment: not taken here). */
  private signed(minus: boolean): Expr | undefined {
    if (this.s.charCodeAt(this.pos + 1) === 45) return undefined;
    this.pos++;
    this.skipSpace();
    const c = this.s.charCodeAt(this.pos);
    if (!isDigit(c) && !(c === 46 && isDigit(this.s.charCodeAt(this.pos + 1)))) return undefined;
    const n = this.number();
    return n === undefined || !minus ? n : negate(n);
  }

  private number(): Expr | undefined {
    const s = this.s;
    // 0x.. / 0b.. are binary literals (or words): the token path handles them.
    if (s.charCodeAt(this.pos) === 48 && (s.charCodeAt(this.pos + 1) === 120 || s.charCodeAt(this.pos + 1) === 98)) return undefined;
    const n = scanNumber(s, this.pos);
    if (n === undefined) return undefined;
    this.pos = n.end;
    return { kind: 'literal', value: n.value };
  }

  private word(): Expr | undefined {
    const start = this.pos;
    let i = start;
    while (isIdentChar(this.s.charCodeAt(i))) i++;
    // The keywords below are at most 7 characters (DEFAULT); a longer word is none of them.
    if (i === start || i - start > 7) return undefined;
    const e = keywordValue(this.s.slice(start, i).toUpperCase());
    if (e === undefined) return undefined;
    this.pos = i;
    // DEFAULT(col) is a function call.
    if (e.kind === 'default') {
      this.skipSpace();
      if (this.s.charCodeAt(this.pos) === 40) return undefined;
    }
    return e;
  }
}
