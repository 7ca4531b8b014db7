/**
 * Splits a SQL dump into statements while it streams in, the way the mysql client does: a
 * statement ends at the delimiter (`;`, or what a `DELIMITER` line set) outside quotes ('…', "…",
 * `…`, with backslash escapes and doubled quotes) and comments (`-- `, `#`, `/* *\/`). Conditional
 * comments (`/*!40101 … *\/`, `/*M!100616 … *\/`) are code: they are kept and sent, and a
 * delimiter inside them still ends the statement. A conditional comment that holds a client
 * command (mariadb-dump's first line `/*M!999999\- enable the sandbox mode *\/`) is a comment.
 *
 * It works on bytes, so statements reach the server byte for byte (binary strings in a dump are
 * not valid UTF-8). Comments and blank lines between statements are dropped; a chunk boundary
 * may fall anywhere, even inside a delimiter or a comment opener.
 */

/** One statement of the dump. */
export interface SplitStatement {
  /** The statement without its delimiter, trimmed, as the file's bytes. */
  readonly sql: Buffer;
  /** 1-based number of the statement in the file. */
  readonly index: number;
  /** 1-based line of the statement's first character. */
  readonly line: number;
  /** Byte offset in the file just after the statement (and its delimiter). */
  readonly end: number;
  /** Set when the text cannot be sent: the file ended inside a string or comment, a bad DELIMITER line. */
  readonly problem?: string;
}

/** The dump cannot be split further (a statement too large to hold). */
export class SplitError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'SplitError';
  }
}

/** MySQL's largest packet; a longer "statement" is an unterminated string or a missing delimiter. */
export const DEFAULT_MAX_STATEMENT_BYTES = 1024 * 1024 * 1024;

type Mode = 'code' | 'single' | 'double' | 'backtick' | 'line' | 'block';

const LF = 0x0a;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const DASH = 0x2d;
const HASH = 0x23;
const BANG = 0x21;
const QUOTE_MODE: Readonly<Record<number, Mode>> = { 0x27: 'single', 0x22: 'double', 0x60: 'backtick' };
const CLOSER: Readonly<Record<string, number>> = { single: 0x27, double: 0x22, backtick: 0x60 };
const DELIMITER_WORD = Buffer.from('delimiter ');
/** Bytes that may open a string or comment, or close a conditional comment. */
const SPECIAL = new Uint8Array(256);
for (const c of '\'"`#-/*') SPECIAL[c.charCodeAt(0)] = 1;
/** Longest look-ahead of a conditional-comment opener: `/*M!` + version digits + one more byte. */
const EXEC_LOOKAHEAD = 16;

function isSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

export class StatementSplitter {
  private mode: Mode = 'code';
  private escaped = false;
  private execDepth = 0;
  private delimiter: Buffer = Buffer.from(';');
  /** Bytes not scanned yet (a look-ahead did not fit in the last chunk). */
  private carry: Buffer = Buffer.alloc(0);
  /** File offset of carry[0]. */
  private offset = 0;
  private line = 1;
  private count = 0;
  /** The current statement: bytes of earlier chunks, from its first character. */
  private parts: Buffer[] = [];
  private partBytes = 0;
  private hasContent = false;
  private startLine = 1;
  private modeLine = 1;

  constructor(private readonly maxStatementBytes = DEFAULT_MAX_STATEMENT_BYTES) {}

  /** Feeds the next chunk of the file; returns the statements it completed. */
  push(chunk: Buffer): SplitStatement[] {
    const work = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const out: SplitStatement[] = [];
    this.scan(work, false, out);
    return out;
  }

  /** The file ended: returns the last statement (a final delimiter is optional). */
  end(): SplitStatement[] {
    const out: SplitStatement[] = [];
    this.scan(this.carry, true, out);
    if (this.mode === 'single' || this.mode === 'double' || this.mode === 'backtick') {
      const what = this.mode === 'backtick' ? 'quoted identifier' : 'string';
      this.emitRest(out, `the file ends inside a ${what} opened at line ${this.modeLine}`);
    } else if (this.mode === 'block' && this.hasContent) {
      this.emitRest(out, `the file ends inside a comment opened at line ${this.modeLine}`);
    } else if (this.execDepth > 0 && this.hasContent) {
      this.emitRest(out, `the file ends inside a conditional comment (/*! … */)`);
    } else if (this.hasContent) {
      this.emitRest(out);
    }
    return out;
  }

  /** The delimiter in force (changed by DELIMITER lines). */
  get currentDelimiter(): string {
    return this.delimiter.toString('utf8');
  }

  private emitRest(out: SplitStatement[], problem?: string): void {
    out.push(this.statement(Buffer.concat(this.parts), this.offset, problem));
    this.reset();
  }

  private reset(): void {
    this.parts = [];
    this.partBytes = 0;
    this.hasContent = false;
  }

  private statement(bytes: Buffer, end: number, problem?: string): SplitStatement {
    let n = bytes.length;
    while (n > 0 && isSpace(bytes[n - 1] as number)) n--;
    this.count++;
    const sql = n === bytes.length ? bytes : bytes.subarray(0, n);
    return { sql, index: this.count, line: this.startLine, end, ...(problem !== undefined ? { problem } : {}) };
  }

  private startContent(): void {
    this.hasContent = true;
    this.startLine = this.line;
  }

  /**
   * Scans `work` from its start. Stops early (keeping the rest as carry) when a decision needs
   * bytes beyond the end and more may come (`final` false).
   */
  private scan(work: Buffer, final: boolean, out: SplitStatement[]): void {
    const n = work.length;
    let i = 0;
    /** Start in `work` of the current statement's bytes (when hasContent). */
    let seg = 0;
    const short = (k: number): boolean => i + k > n && !final;
    scan: while (i < n) {
      switch (this.mode) {
        case 'single':
        case 'double':
        case 'backtick':
          i = this.skipQuoted(work, i);
          continue;
        case 'line': {
          const nl = work.indexOf(LF, i);
          if (nl < 0) i = n;
          else {
            this.mode = 'code';
            this.line++;
            i = nl + 1;
          }
          continue;
        }
        case 'block':
          if (work[i] === STAR) {
            if (short(2)) break scan;
            if (work[i + 1] === SLASH) {
              this.mode = 'code';
              i += 2;
              continue;
            }
          } else if (work[i] === LF) this.line++;
          i++;
          continue;
        case 'code':
          if (this.hasContent) i = this.skipPlain(work, i);
          if (i >= n) break scan;
          break;
      }
      const b = work[i] as number;
      // Code: delimiter first (it may start with `/`, `-` or `#`).
      const delim = this.delimiter;
      if (b === delim[0]) {
        if (short(delim.length)) break;
        if (delim.length === 1 || work.subarray(i, i + delim.length).equals(delim)) {
          if (this.hasContent) {
            this.appendPart(work.subarray(seg, i));
            out.push(this.statement(Buffer.concat(this.parts), this.offset + i + delim.length));
            this.reset();
          }
          i += delim.length;
          continue;
        }
      }
      if (!this.hasContent && isSpace(b)) {
        if (b === LF) this.line++;
        i++;
        continue;
      }
      if (!this.hasContent && (b === 0x64 || b === 0x44)) {
        const r = this.delimiterCommand(work, i, final, out);
        if (r === 'more') break;
        if (r !== 'no') {
          i = r;
          continue;
        }
      }
      if (b === HASH) {
        this.enter('line');
        i++;
        continue;
      }
      if (b === DASH) {
        if (short(3)) break;
        const c = work[i + 2];
        if (work[i + 1] === DASH && (c === undefined || c <= 0x20)) {
          this.enter('line');
          i += 2;
          continue;
        }
      }
      if (b === SLASH) {
        if (short(2)) break;
        if (work[i + 1] === STAR) {
          const exec = this.execOpener(work, i, final);
          if (exec === 'more') break;
          if (exec === 'comment') {
            this.enter('block');
            i += 2;
            continue;
          }
          if (!this.hasContent) {
            this.startContent();
            seg = i;
          }
          this.execDepth++;
          i = exec;
          continue;
        }
      }
      if (b === STAR && this.execDepth > 0) {
        if (short(2)) break;
        if (work[i + 1] === SLASH) {
          this.execDepth--;
          i += 2;
          continue;
        }
      }
      if (!this.hasContent) {
        this.startContent();
        seg = i;
      }
      const quote = QUOTE_MODE[b];
      if (quote !== undefined) this.enter(quote);
      else if (b === LF) this.line++;
      i++;
    }
    if (this.hasContent) this.appendPart(work.subarray(seg, i));
    this.offset += i;
    this.carry = i < n ? Buffer.from(work.subarray(i)) : Buffer.alloc(0);
  }

  /** In a quoted string or identifier: the index after its closing quote, or the end of `work`. */
  private skipQuoted(work: Buffer, from: number): number {
    const n = work.length;
    const close = CLOSER[this.mode];
    const escapes = this.mode !== 'backtick';
    let line = this.line;
    let i = from;
    if (this.escaped) {
      this.escaped = false;
      if (work[i] === LF) line++;
      i++;
    }
    for (; i < n; i++) {
      const c = work[i];
      if (c === close) {
        this.mode = 'code'; // a doubled quote closes and reopens
        i++;
        break;
      }
      if (c === BACKSLASH && escapes) {
        if (i + 1 >= n) {
          this.escaped = true;
          i++;
          break;
        }
        i++;
        if (work[i] === LF) line++;
      } else if (c === LF) line++;
    }
    this.line = line;
    return i;
  }

  /** In a statement: the index of the next byte that may start a string, comment or delimiter. */
  private skipPlain(work: Buffer, from: number): number {
    const n = work.length;
    const d0 = this.delimiter[0];
    let line = this.line;
    let i = from;
    for (; i < n; i++) {
      const c = work[i] as number;
      if (SPECIAL[c] === 1 || c === d0) break;
      if (c === LF) line++;
    }
    this.line = line;
    return i;
  }

  private enter(mode: Mode): void {
    this.mode = mode;
    this.modeLine = this.line;
  }

  private appendPart(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.partBytes += bytes.length;
    if (this.partBytes > this.maxStatementBytes) {
      const mib = Math.round(this.maxStatementBytes / (1024 * 1024));
      throw new SplitError(
        `the statement at line ${this.startLine} is longer than ${mib} MiB (an unterminated string or a missing delimiter "${this.currentDelimiter}"?)`,
        this.startLine,
      );
    }
    // Copied: the chunk buffers of a read stream may be reused.
    this.parts.push(Buffer.from(bytes));
  }

  /**
   * At `/*`: the index after a conditional comment's opener (`/*!NNNNN`, `/*M!NNNNN`), 'comment'
   * for a plain comment or a client-command comment, 'more' when the opener is cut off.
   */
  private execOpener(work: Buffer, i: number, final: boolean): number | 'comment' | 'more' {
    const n = work.length;
    let j = i + 2;
    if (j < n && work[j] === 0x4d) j++; // /*M!: MariaDB's conditional comment
    if (j >= n) return final ? 'comment' : 'more';
    if (work[j] !== BANG) return 'comment';
    j++;
    while (j < n && isDigit(work[j])) j++;
    if (j >= n) return final || n - i >= EXEC_LOOKAHEAD ? j : 'more';
    return work[j] === BACKSLASH ? 'comment' : j;
  }

  /**
   * At a `d` that starts a statement: a `DELIMITER x` line sets the delimiter and returns the index
   * after the line; 'no' when this is not a DELIMITER line; 'more' when the line is cut off.
   */
  private delimiterCommand(work: Buffer, i: number, final: boolean, out: SplitStatement[]): number | 'no' | 'more' {
    const word = DELIMITER_WORD.length;
    if (i + word > work.length) {
      if (final) return 'no';
      const have = work.subarray(i).toString('latin1').toLowerCase();
      return DELIMITER_WORD.toString('latin1').startsWith(have) ? 'more' : 'no';
    }
    const head = work.subarray(i, i + word - 1).toString('latin1').toLowerCase();
    if (head !== 'delimiter' || !isSpace(work[i + word - 1] as number)) return 'no';
    const nl = work.indexOf(LF, i);
    if (nl < 0 && !final) return 'more';
    const stop = nl < 0 ? work.length : nl;
    const arg = work.subarray(i + word, stop).toString('utf8').trim().split(/\s+/)[0] ?? '';
    this.startLine = this.line;
    if (arg === '') {
      this.count++;
      out.push({
        sql: Buffer.from(work.subarray(i, stop)),
        index: this.count,
        line: this.line,
        end: this.offset + stop,
        problem: 'DELIMITER needs an argument (e.g. DELIMITER ;;)',
      });
    } else this.delimiter = Buffer.from(arg, 'utf8');
    if (nl >= 0) this.line++;
    return nl < 0 ? stop : nl + 1;
  }
}
