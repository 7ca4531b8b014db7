/** A small cursor over one statement's tokens, used by the hand-written token-level parsers. */
import type { SqlError } from '../../errors/index.js';
import type { Token } from './lexer.js';
import { parseError } from './parse-error.js';

export class Cursor {
  pos = 0;
  constructor(
    readonly sql: string,
    readonly tokens: readonly Token[],
  ) {}

  peek(k = 0): Token | undefined {
    return this.tokens[this.pos + k];
  }

  atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  next(): Token {
    const t = this.tokens[this.pos];
    if (t === undefined) throw this.error();
    this.pos++;
    return t;
  }

  /** 1064 at the current token (or at the end of the statement). */
  error(): SqlError {
    const t = this.tokens[this.pos];
    const last = this.tokens[this.tokens.length - 1];
    return parseError(this.sql, t ? t.start : last ? last.end : this.sql.length);
  }

  isWord(...words: string[]): boolean {
    const t = this.peek();
    return t !== undefined && t.type === 'word' && words.includes(t.upper);
  }

  isWordAt(k: number, ...words: string[]): boolean {
    const t = this.peek(k);
    return t !== undefined && t.type === 'word' && words.includes(t.upper);
  }

  acceptWord(...words: string[]): string | undefined {
    const t = this.peek();
    if (t === undefined || t.type !== 'word' || !words.includes(t.upper)) return undefined;
    this.pos++;
    return t.upper;
  }

  /** Accepts a sequence of words (all or nothing). */
  acceptWords(...words: string[]): boolean {
    for (let k = 0; k < words.length; k++) if (!this.isWordAt(k, words[k] ?? '')) return false;
    this.pos += words.length;
    return true;
  }

  expectWord(...words: string[]): string {
    const w = this.acceptWord(...words);
    if (w === undefined) throw this.error();
    return w;
  }

  isOp(op: string): boolean {
    const t = this.peek();
    return t !== undefined && t.type === 'op' && t.text === op;
  }

  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.pos++;
    return true;
  }

  expectOp(op: string): void {
    if (!this.acceptOp(op)) throw this.error();
  }

  /** An identifier: bare word or backtick-quoted. */
  ident(): string {
    const t = this.peek();
    if (t === undefined || (t.type !== 'word' && t.type !== 'qident')) throw this.error();
    this.pos++;
    return t.type === 'qident' ? String(t.value) : t.text;
  }

  isIdent(): boolean {
    const t = this.peek();
    return t !== undefined && (t.type === 'word' || t.type === 'qident');
  }

  /** An identifier, or a quoted string used as a name (charset names, LIKE patterns). */
  name(): string {
    const t = this.peek();
    if (t !== undefined && t.type === 'string') {
      this.pos++;
      return String(t.value);
    }
    return this.ident();
  }

  /** `db.name` or `name`. */
  tableName(): { db?: string; name: string } {
    const first = this.ident();
    if (this.acceptOp('.')) return { db: first, name: this.ident() };
    return { name: first };
  }

  string(): string {
    const t = this.peek();
    if (t === undefined || t.type !== 'string') throw this.error();
    this.pos++;
    return String(t.value);
  }

  /** A non-negative integer literal. */
  int(): number {
    const t = this.peek();
    if (t === undefined || t.type !== 'number' || typeof t.value !== 'bigint') throw this.error();
    this.pos++;
    return Number(t.value);
  }

  /** Source text from token `from` (inclusive) to the current position (exclusive). */
  textFrom(from: number): string {
    const a = this.tokens[from];
    const b = this.tokens[this.pos - 1];
    if (a === undefined || b === undefined || this.pos <= from) return '';
    return this.sql.slice(a.start, b.end);
  }

  expectEnd(): void {
    if (!this.atEnd()) throw this.error();
  }
}
