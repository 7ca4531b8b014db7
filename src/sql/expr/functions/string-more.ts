/** More string functions: SUBSTRING_INDEX, FIELD, FIND_IN_SET, ELT, INSERT, QUOTE, SOUNDEX, MAKE_SET. */
import type { Value } from '../../../types/index.js';
import { utf8Encode } from '../../../util/index.js';
import { compareValues } from '../compare.js';
import { bigintType, displayLength, textType, varcharType } from '../result-types.js';
import { toBigInt } from '../to-number.js';
import type { TypeInfo } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { always, arg, fixed, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

function str(args: readonly Value[], i: number): string {
  return valueToString(arg(args, i));
}

const firstLength = (args: readonly TypeInfo[]) => varcharType(displayLength(args[0]?.type ?? varcharType(0)));

/** SUBSTRING_INDEX(s, delim, count): left of the count-th delim (count < 0: right of it, from the end). */
const substringIndex: FunctionDef = strictFn(3, 3, firstLength, (args) => {
  const s = str(args, 0);
  const delim = str(args, 1);
  const count = toBigInt(arg(args, 2)) ?? 0n;
  if (delim === '' || count === 0n) return '';
  const parts = s.split(delim);
  if (count > 0n) return count >= BigInt(parts.length) ? s : parts.slice(0, Number(count)).join(delim);
  return -count >= BigInt(parts.length) ? s : parts.slice(parts.length + Number(count)).join(delim);
});

/** FIELD(x, a, b, ...): 1-based index of the first argument equal to x; 0 when none (or x NULL). */
const field: FunctionDef = nullableFn(2, Infinity, fixed(bigintType(3)), (args) => {
  const x = args[0] ?? null;
  if (x === null) return 0n;
  for (let i = 1; i < args.length; i++) if (compareValues(x, args[i] ?? null) === 0) return BigInt(i);
  return 0n;
}, always);

/** FIND_IN_SET(x, 'a,b,c'): 1-based position of x in the comma list; 0 when absent or x has a comma. */
const findInSet: FunctionDef = strictFn(2, 2, fixed(bigintType(3)), (args) => {
  const x = str(args, 0);
  const list = str(args, 1);
  if (x.includes(',') || list === '') return 0n;
  const items = list.split(',');
  for (let i = 0; i < items.length; i++) if (compareValues(x, items[i] as string) === 0) return BigInt(i + 1);
  return 0n;
});

/** ELT(n, a, b, ...): the n-th string argument; NULL when n is out of range. */
const elt: FunctionDef = nullableFn(2, Infinity, (a) => varcharType(Math.max(0, ...a.slice(1).map((t) => displayLength(t.type)))), (args) => {
  const n = args[0] === null || args[0] === undefined ? null : toBigInt(args[0]);
  if (n === null || n < 1n || n >= BigInt(args.length)) return null;
  const v = args[Number(n)] ?? null;
  return v === null ? null : valueToString(v);
}, () => false);

/** INSERT(s, pos, len, new): s with len characters at pos replaced; s unchanged when pos is out of range. */
const insertFn: FunctionDef = strictFn(4, 4, (a) => varcharType(displayLength(a[0]?.type ?? varcharType(0)) + displayLength(a[3]?.type ?? varcharType(0))), (args) => {
  const cs = Array.from(str(args, 0));
  const pos = toBigInt(arg(args, 1)) ?? 0n;
  const len = toBigInt(arg(args, 2)) ?? 0n;
  if (pos < 1n || pos > BigInt(cs.length)) return cs.join('');
  const start = Number(pos) - 1;
  const end = len < 0n || BigInt(start) + len > BigInt(cs.length) ? cs.length : start + Number(len);
  return cs.slice(0, start).join('') + str(args, 3) + cs.slice(end).join('');
});

/** QUOTE(s): a single-quoted SQL literal (\, ', NUL and ^Z escaped); QUOTE(NULL) is the word NULL. */
const quote: FunctionDef = nullableFn(1, 1, (a) => varcharType(2 * displayLength(a[0]?.type ?? varcharType(0)) + 2), (args) => {
  const v = args[0] ?? null;
  if (v === null) return 'NULL';
  const body = valueToString(v).replace(/[\\'\0\x1a]/g, (c) => (c === '\0' ? '\\0' : c === '\x1a' ? '\\Z' : `\\${c}`));
  return `'${body}'`;
}, always);

/** Soundex codes of A..Z ('0': vowels, H, W, Y - not written). */
const SOUNDEX_CODES = '01230120022455012623010202';

function soundexCode(c: string): string {
  const i = c.toUpperCase().charCodeAt(0) - 65;
  return i >= 0 && i < 26 ? (SOUNDEX_CODES[i] as string) : '0';
}

function isAlpha(c: string): boolean {
  return /\p{L}/u.test(c);
}

/** MySQL's SOUNDEX: first letter, then codes of later letters (a code equal to the last written one is dropped, even across vowels), padded to 4; not truncated. */
const soundex: FunctionDef = strictFn(1, 1, firstLength, (args) => {
  const letters = Array.from(str(args, 0)).filter(isAlpha);
  const first = letters[0];
  if (first === undefined) return '';
  let out = first.toUpperCase();
  let last = soundexCode(first);
  for (let i = 1; i < letters.length; i++) {
    const code = soundexCode(letters[i] as string);
    if (code !== '0' && code !== last) {
      out += code;
      last = code;
    }
  }
  return out.length < 4 ? out.padEnd(4, '0') : out;
});

/** MAKE_SET(bits, a, b, ...): the arguments whose bit is set, comma-separated (NULLs skipped). */
const makeSet: FunctionDef = nullableFn(2, Infinity, () => textType(), (args) => {
  const bits = args[0] === null || args[0] === undefined ? null : toBigInt(args[0]);
  if (bits === null) return null;
  const parts: string[] = [];
  for (let i = 1; i < args.length && i <= 64; i++) {
    const v = args[i] ?? null;
    if (v !== null && (BigInt.asUintN(64, bits) >> BigInt(i - 1)) & 1n) parts.push(valueToString(v));
  }
  return parts.join(',');
}, () => false);

export const STRING_MORE_FUNCTIONS: FunctionTable = {
  SUBSTRING_INDEX: substringIndex,
  FIELD: field,
  FIND_IN_SET: findInSet,
  ELT: elt,
  INSERT: insertFn,
  QUOTE: quote,
  SOUNDEX: soundex,
  MAKE_SET: makeSet,
  /** ORD(s): the first character's UTF-8 bytes as a big-endian number. */
  ORD: strictFn(1, 1, fixed(bigintType(21)), (args) => {
    const first = Array.from(str(args, 0))[0];
    if (first === undefined) return 0n;
    const bytes = utf8Encode(first);
    let n = 0n;
    for (const b of bytes) n = n * 256n + BigInt(b);
    return n;
  }),
};
