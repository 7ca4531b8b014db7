/**
 * REGEXP / RLIKE and REGEXP_LIKE, REGEXP_REPLACE, REGEXP_SUBSTR, REGEXP_INSTR over JS RegExp.
 * MySQL 8.0 uses ICU; the common syntax is the same. Differences handled here: POSIX classes
 * (`[[:alpha:]]`) and `\x{hhhh}` are translated; matching is case-insensitive unless a binary
 * string is involved or match_type says `c` (as with MySQL's default _ci collation).
 * Positions and occurrences count characters (code points), 1-based.
 */
import { SqlError } from '../../../errors/index.js';
import type { Value } from '../../../types/index.js';
import { bigintType, displayLength, varcharType } from '../result-types.js';
import { toBigInt } from '../to-number.js';
import type { TypeInfo } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { fixed, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: '\\p{L}', digit: '0-9', alnum: '\\p{L}\\p{N}', upper: '\\p{Lu}', lower: '\\p{Ll}', space: '\\s',
  blank: ' \\t', punct: '\\p{P}\\p{S}', xdigit: '0-9A-Fa-f', cntrl: '\\p{Cc}', word: '\\w', print: '\\P{C}', graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
};

function translate(pattern: string): string {
  return pattern
    .replace(/\[:([a-z]+):\]/g, (m, name: string) => POSIX_CLASSES[name] ?? m)
    .replace(/\\x\{([0-9a-fA-F]+)\}/g, '\\u{$1}');
}

const cache = new Map<string, RegExp>();
const CACHE_LIMIT = 256;

/** A compiled pattern (global flag: callers reset lastIndex); regex syntax errors as MySQL's. */
function compile(pattern: string, flags: string): RegExp {
  const key = `${flags}/${pattern}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const src = translate(pattern);
  let re: RegExp;
  try {
    re = new RegExp(src, `${flags}gu`);
  } catch (err) {
    try {
      re = new RegExp(src, `${flags}g`);
    } catch {
      throw regexError(err);
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, re);
  return re;
}

function regexError(err: unknown): SqlError {
  const msg = err instanceof Error ? err.message : '';
  if (/Unterminated group|Unmatched '\)'/.test(msg)) return SqlError.of('ER_REGEXP_MISMATCHED_PAREN');
  if (/Unterminated character class/.test(msg)) return SqlError.of('ER_REGEXP_MISSING_CLOSE_BRACKET');
  if (/escape/i.test(msg)) return SqlError.of('ER_REGEXP_BAD_ESCAPE_SEQUENCE');
  return SqlError.of('ER_REGEXP_RULE_SYNTAX', '1', '1');
}

/** JS flags for the subject/pattern pair and an optional MySQL match_type string. */
function flagsFor(subject: Value, pattern: Value, matchType: Value | undefined): string {
  let ci = !(subject instanceof Uint8Array || pattern instanceof Uint8Array);
  let multiline = false;
  let dotAll = false;
  for (const c of matchType === undefined || matchType === null ? '' : valueToString(matchType)) {
    if (c === 'c') ci = false;
    else if (c === 'i') ci = true;
    else if (c === 'm') multiline = true;
    else if (c === 'n') dotAll = true;
    else if (c !== 'u') throw SqlError.of('ER_WRONG_ARGUMENTS', 'regexp_like');
  }
  return `${ci ? 'i' : ''}${multiline ? 'm' : ''}${dotAll ? 's' : ''}`;
}

/** UTF-16 offset of the 1-based code-point position `pos` in s; 3686 when past the end + 1. */
function offsetOf(s: string, pos: bigint): number {
  if (pos < 1n) throw SqlError.of('ER_REGEXP_INDEX_OUTOFBOUNDS_ERROR');
  let offset = 0;
  for (let i = 1n; i < pos; i++) {
    if (offset >= s.length) throw SqlError.of('ER_REGEXP_INDEX_OUTOFBOUNDS_ERROR');
    offset += (s.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1;
  }
  return offset;
}

function charPos(s: string, offset: number): bigint {
  return BigInt(Array.from(s.slice(0, offset)).length + 1);
}

function str(v: Value | undefined): string {
  return v === undefined || v === null ? '' : valueToString(v);
}

function num(v: Value | undefined, dflt: bigint): bigint {
  return v === undefined || v === null ? dflt : toBigInt(v) ?? dflt;
}

/** The occurrence-th match at or after `from`, or null. */
function nth(re: RegExp, s: string, from: number, occurrence: bigint): RegExpExecArray | null {
  re.lastIndex = from;
  let n = 0n;
  for (;;) {
    const m = re.exec(s);
    if (m === null) return null;
    if (++n >= occurrence) return m;
    if (m[0] === '') re.lastIndex = m.index + 1;
  }
}

const regexpLike: FunctionDef = strictFn(2, 3, fixed(bigintType(1)), (args) => {
  const re = compile(str(args[1]), flagsFor(args[0] ?? null, args[1] ?? null, args[2]));
  re.lastIndex = 0;
  return re.test(str(args[0])) ? 1n : 0n;
});

const firstLength = (args: readonly TypeInfo[]) => varcharType(displayLength(args[0]?.type ?? varcharType(0)));

/** REGEXP_REPLACE(s, pat, repl[, pos[, occurrence[, match_type]]]): occurrence 0 = every match. */
const regexpReplace: FunctionDef = strictFn(3, 6, (a) => varcharType(Math.max(255, displayLength(a[0]?.type ?? varcharType(0)) * 2)), (args) => {
  const s = str(args[0]);
  const re = compile(str(args[1]), flagsFor(args[0] ?? null, args[1] ?? null, args[5]));
  const from = offsetOf(s, num(args[3], 1n));
  const occurrence = num(args[4], 0n);
  const repl = str(args[2]);
  const head = s.slice(0, from);
  const tail = s.slice(from);
  if (occurrence <= 0n) {
    re.lastIndex = 0;
    return head + tail.replace(re, repl);
  }
  const m = nth(re, tail, 0, occurrence);
  if (m === null) return s;
  const one = new RegExp(re.source, re.flags.replace('g', ''));
  return head + tail.slice(0, m.index) + m[0].replace(one, repl) + tail.slice(m.index + m[0].length);
});

const regexpSubstr: FunctionDef = strictFn(2, 5, firstLength, (args) => {
  const s = str(args[0]);
  const re = compile(str(args[1]), flagsFor(args[0] ?? null, args[1] ?? null, args[4]));
  const m = nth(re, s, offsetOf(s, num(args[2], 1n)), num(args[3], 1n) < 1n ? 1n : num(args[3], 1n));
  return m === null ? null : m[0];
});

/** REGEXP_INSTR(s, pat[, pos[, occurrence[, return_option[, match_type]]]]): 0 when no match. */
const regexpInstr: FunctionDef = strictFn(2, 6, fixed(bigintType(21)), (args) => {
  const s = str(args[0]);
  const re = compile(str(args[1]), flagsFor(args[0] ?? null, args[1] ?? null, args[5]));
  const occurrence = num(args[3], 1n);
  const m = nth(re, s, offsetOf(s, num(args[2], 1n)), occurrence < 1n ? 1n : occurrence);
  if (m === null) return 0n;
  return charPos(s, num(args[4], 0n) === 0n ? m.index : m.index + m[0].length);
});

export const REGEXP_FUNCTIONS: FunctionTable = {
  /** `a REGEXP b` / `a RLIKE b` arrive as REGEXP(a, b) (convert-expr). */
  REGEXP: { ...regexpLike, max: 2 },
  RLIKE: { ...regexpLike, max: 2 },
  REGEXP_LIKE: regexpLike,
  REGEXP_REPLACE: regexpReplace,
  REGEXP_SUBSTR: regexpSubstr,
  REGEXP_INSTR: regexpInstr,
};
