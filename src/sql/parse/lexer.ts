/**
 * Hand-written MySQL lexer. It powers splitStatements, countPlaceholders, the statement-cache
 * digest and the fast paths, and rewrites text for node-sql-parser. Comments are dropped;
 * executable comments (`/*! ... *\/`, `/*!80000 ... *\/`) contribute their content.
 */
import { Decimal, type Value } from '../../types/index.js';
import { parseError } from './parse-error.js';

export type TokenType =
  | 'word' // bare identifier or keyword (`upper` holds the upper-cased text)
  | 'qident' // `backtick` identifier, `value` unescaped
  | 'string' // '...' or "..." with escapes resolved
  | 'number' // bigint | Decimal | number
  | 'hex' // X'..' / 0x.. -> Uint8Array
  | 'bit' // b'..' / 0b.. -> Uint8Array
  | 'param' // ?
  | 'var' // @name, @@name, @@session.name
  | 'op' // punctuation and operators
  | 'semi'; // ;

export interface Token {
  readonly type: TokenType;
  readonly start: number;
  readonly end: number;
  /** Source text of the token. */
  readonly text: string;
  /** Upper-cased text for words, '' otherwise. */
  readonly upper: string;
  /** Literal value (strings, numbers, hex, bit) or identifier name (qident). */
  readonly value: Value;
}

const MULTI_OPS = ['<=>', '->>', '<=', '>=', '<>', '!=', '<<', '>>', '&&', '||', ':=', '->'];
const OP_STARTS = new Set(MULTI_OPS.map((o) => o.charCodeAt(0)));
const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', "'": "'", '"': '"', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a', '\\': '\\', '%': '\\%', _: '\\_',
};

export function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128;
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
export function isIdentChar(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}
export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/** Tokenizes a whole SQL text (possibly several statements). Throws 1064 on an unterminated literal. */
export function tokenize(sql: string): Token[] {
  return new Lexer(sql).run();
}

/**
 * The tokens of an INSERT/REPLACE up to and including its VALUES (or VALUE) keyword and the
 * offset after it, for the bulk-insert path (bulk-insert.ts) that reads the rows itself.
 * Undefined when the text does not start that way within `maxTokens` tokens, or when the
 * keyword sits inside an executable comment.
 */
export function tokenizeInsertHead(sql: string, maxTokens: number): { tokens: Token[]; end: number } | undefined {
  return new Lexer(sql).runInsertHead(maxTokens);
}

class Lexer {
  private pos = 0;
  private execDepth = 0;
  private readonly out: Token[] = [];
  constructor(private readonly sql: string) {}

  run(): Token[] {
    const n = this.sql.length;
    while (this.pos < n) {
      if (this.skipTrivia()) continue;
      if (this.pos >= n) break;
      this.out.push(this.next());
    }
    return this.out;
  }

  runInsertHead(maxTokens: number): { tokens: Token[]; end: number } | undefined {
    const n = this.sql.length;
    while (this.pos < n && this.out.length < maxTokens) {
      if (this.skipTrivia()) continue;
      if (this.pos >= n) break;
      const t = this.next();
      this.out.push(t);
      if (this.out.length === 1 && t.upper !== 'INSERT' && t.upper !== 'REPLACE') return undefined;
      if (t.upper === 'VALUES' || t.upper === 'VALUE') return this.execDepth === 0 ? { tokens: this.out, end: this.pos } : undefined;
    }
    return undefined;
  }

  /** Skips whitespace and comments; returns true when something was skipped. */
  private skipTrivia(): boolean {
    const s = this.sql;
    const c = s.charCodeAt(this.pos);
    if (isSpace(c)) {
      this.pos++;
      return true;
    }
    if (c === 35) return this.skipLine(); // #
    if (c === 45 && s.charCodeAt(this.pos + 1) === 45) {
      const d = s.charCodeAt(this.pos + 2);
      if (Number.isNaN(d) || d <= 32) return this.skipLine();
    }
    if (c === 47 && s.charCodeAt(this.pos + 1) === 42) return this.skipBlock();
    if (c === 42 && s.charCodeAt(this.pos + 1) === 47 && this.execDepth > 0) {
      this.execDepth--;
      this.pos += 2;
      return true;
    }
    return false;
  }

  private skipLine(): boolean {
    const nl = this.sql.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.sql.length : nl + 1;
    return true;
  }

  private skipBlock(): boolean {
    const s = this.sql;
    // MariaDB's `/*M!nnnnnn ... */` is a plain comment to MySQL (mariadb-dump's sandbox-mode line).
    if (s.charCodeAt(this.pos + 2) === 33) {
      this.pos += 3;
      while (isDigit(s.charCodeAt(this.pos))) this.pos++;
      this.execDepth++;
      return true;
    }
    const end = s.indexOf('*/', this.pos + 2);
    if (end < 0) throw parseError(s, this.pos);
    this.pos = end + 2;
    return true;
  }

  private tok(type: TokenType, start: number, value: Value = null, upper = ''): Token {
    return { type, start, end: this.pos, text: this.sql.slice(start, this.pos), upper, value };
  }

  private next(): Token {
    const s = this.sql;
    const start = this.pos;
    const c = s.charCodeAt(start);
    const c1 = s.charCodeAt(start + 1);
    if (c === 39 || c === 34) return this.string(start);
    if (c === 96) return this.backtick(start);
    if ((c === 120 || c === 88) && c1 === 39) return this.quotedBinary(start, 'hex');
    if ((c === 98 || c === 66) && c1 === 39) return this.quotedBinary(start, 'bit');
    if (c === 48 && (c1 === 120 || c1 === 98) && this.binaryPrefixed(start)) {
      return this.prefixedBinary(start, c1 === 120 ? 'hex' : 'bit');
    }
    if (isDigit(c) || (c === 46 && isDigit(c1))) return this.number(start);
    if (isIdentStart(c)) return this.word(start);
    if (c === 64) return this.variable(start);
    if (c === 63) {
      this.pos++;
      return this.tok('param', start);
    }
    if (c === 59) {
      this.pos++;
      return this.tok('semi', start);
    }
    if (OP_STARTS.has(c)) for (const op of MULTI_OPS) {
      if (s.startsWith(op, start)) {
        this.pos += op.length;
        return this.tok('op', start);
      }
    }
    this.pos++;
    return this.tok('op', start);
  }

  private string(start: number): Token {
    const r = scanString(this.sql, start);
    if (r === undefined) throw parseError(this.sql, start);
    this.pos = r.end;
    return this.tok('string', start, r.value);
  }

  private backtick(start: number): Token {
    const s = this.sql;
    let i = start + 1;
    let out = '';
    for (;;) {
      const end = s.indexOf('`', i);
      if (end < 0) throw parseError(s, start);
      out += s.slice(i, end);
      if (s[end + 1] === '`') {
        out += '`';
        i = end + 2;
      } else {
        this.pos = end + 1;
        break;
      }
    }
    return this.tok('qident', start, out);
  }

  private quotedBinary(start: number, type: 'hex' | 'bit'): Token {
    const end = this.sql.indexOf("'", start + 2);
    if (end < 0) throw parseError(this.sql, start);
    const digits = this.sql.slice(start + 2, end);
    this.pos = end + 1;
    const ok = type === 'hex' ? /^[0-9a-fA-F]*$/.test(digits) && digits.length % 2 === 0 : /^[01]*$/.test(digits);
    if (!ok) throw parseError(this.sql, start);
    return this.tok(type, start, type === 'hex' ? hexBytes(digits) : bitBytes(digits));
  }

  private binaryPrefixed(start: number): boolean {
    const re = this.sql.charCodeAt(start + 1) === 120 ? /0x[0-9a-fA-F]+/y : /0b[01]+/y;
    re.lastIndex = start;
    const m = re.exec(this.sql);
    if (!m) return false;
    return !isIdentChar(this.sql.charCodeAt(start + m[0].length));
  }

  private prefixedBinary(start: number, type: 'hex' | 'bit'): Token {
    let i = start + 2;
    while (isIdentChar(this.sql.charCodeAt(i))) i++;
    this.pos = i;
    const digits = this.sql.slice(start + 2, i);
    const value = type === 'hex' ? hexBytes(digits.length % 2 ? '0' + digits : digits) : bitBytes(digits);
    return this.tok(type, start, value);
  }

  private number(start: number): Token {
    const r = scanNumber(this.sql, start);
    if (r === undefined) return this.word(start); // 1abc is an identifier
    this.pos = r.end;
    return this.tok('number', start, r.value);
  }

  private word(start: number): Token {
    let i = start;
    while (isIdentChar(this.sql.charCodeAt(i))) i++;
    this.pos = i;
    const text = this.sql.slice(start, i);
    return this.tok('word', start, text, text.toUpperCase());
  }

  private variable(start: number): Token {
    const s = this.sql;
    let i = start + 1;
    if (s.charCodeAt(i) === 64) i++;
    const q = s[i];
    if (q === '`' || q === "'" || q === '"') {
      const end = s.indexOf(q, i + 1);
      if (end < 0) throw parseError(s, start);
      this.pos = end + 1;
      return this.tok('var', start, s.slice(i + 1, end));
    }
    while (isIdentChar(s.charCodeAt(i)) || (s.charCodeAt(i) === 46 && isIdentStart(s.charCodeAt(i + 1)))) i++;
    this.pos = i;
    return this.tok('var', start, s.slice(start, i).replace(/^@@?/, ''));
  }
}

/** A scanned literal: its value and the offset just past it. */
export interface Scanned<T> {
  readonly value: T;
  readonly end: number;
}

/**
 * The quoted string starting at `s[start]` (' or "): backslash escapes and doubled quotes
 * resolved. Undefined when it is not terminated.
 */
export function scanString(s: string, start: number): Scanned<string> | undefined {
  const quote = s[start] as string;
  let i = start + 1;
  let out = '';
  // Whole runs up to the next quote at a time (indexOf), unless a backslash sits in the run.
  for (;;) {
    const q = s.indexOf(quote, i);
    if (q < 0) return undefined;
    const run = s.slice(i, q);
    const b = run.indexOf('\\');
    if (b >= 0) {
      out += run.slice(0, b);
      const e = s[i + b + 1] ?? '';
      out += ESCAPES[e] ?? e;
      i += b + 2;
    } else if (s[q + 1] === quote) {
      out += s.slice(i, q + 1);
      i = q + 2;
    } else {
      return { value: out + run, end: q + 1 };
    }
  }
}

/**
 * The number starting at `s[start]` (a digit, or `.` and a digit): bigint for integers, Decimal
 * with a fraction, number with an exponent. Undefined when the digits begin a word (`1abc`).
 */
export function scanNumber(s: string, start: number): Scanned<Value> | undefined {
  let i = start;
  while (isDigit(s.charCodeAt(i))) i++;
  let frac = false;
  if (s.charCodeAt(i) === 46) {
    frac = true;
    i++;
    while (isDigit(s.charCodeAt(i))) i++;
  }
  let exp = false;
  const e = s.charCodeAt(i);
  if (e === 101 || e === 69) {
    let j = i + 1;
    const sign = s.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    if (isDigit(s.charCodeAt(j))) {
      exp = true;
      while (isDigit(s.charCodeAt(j))) j++;
      i = j;
    }
  }
  if (!frac && !exp && isIdentStart(s.charCodeAt(i))) return undefined;
  const text = s.slice(start, i);
  return { value: exp ? Number(text) : frac ? new Decimal(text) : BigInt(text), end: i };
}

export function hexBytes(digits: string): Uint8Array {
  const out = new Uint8Array(digits.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(digits.slice(k * 2, k * 2 + 2), 16);
  return out;
}

export function bitBytes(digits: string): Uint8Array {
  if (digits.length === 0) return new Uint8Array(0);
  let v = BigInt('0b' + digits);
  const len = Math.ceil(digits.length / 8);
  const out = new Uint8Array(len);
  for (let k = len - 1; k >= 0; k--) {
    out[k] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** True for tokens that carry a literal value the digest may lift into a parameter. */
export function isLiteralToken(t: Token): boolean {
  return t.type === 'string' || t.type === 'number' || t.type === 'hex' || t.type === 'bit';
}
