/** String functions working on characters (code points): CONCAT, SUBSTRING, TRIM, LPAD, LOCATE ... */
import type { Value } from '../../../types/index.js';
import { utf8Encode } from '../../../util/index.js';
import { bigintType, displayLength, textType, varcharType } from '../result-types.js';
import { toBigInt } from '../to-number.js';
import type { TypeInfo } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { arg, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

/** Cap for REPEAT/LPAD/SPACE results (MySQL: max_allowed_packet, NULL + warning beyond it). */
const MAX_RESULT_CHARS = 16 * 1024 * 1024;

function str(args: readonly Value[], i: number): string {
  return valueToString(arg(args, i));
}

function int(args: readonly Value[], i: number): number {
  const n = toBigInt(arg(args, i)) ?? 0n;
  return n > 2147483647n ? 2147483647 : n < -2147483648n ? -2147483648 : Number(n);
}

function chars(s: string): string[] {
  return Array.from(s);
}

function sumLength(args: readonly TypeInfo[]): number {
  return args.reduce((n, a) => n + displayLength(a.type), 0);
}

const firstLength = (args: readonly TypeInfo[]) => varcharType(displayLength(args[0]?.type ?? varcharType(0)));
const lengthType = () => bigintType(10);

const concat: FunctionDef = strictFn(1, Infinity, (a) => varcharType(sumLength(a)), (args) => {
  let out = '';
  for (let i = 0; i < args.length; i++) out += str(args, i);
  return out;
});

/** CONCAT_WS skips NULL values (but a NULL separator gives NULL). */
const concatWs: FunctionDef = nullableFn(2, Infinity, (a) => varcharType(sumLength(a)), (args) => {
  if (args[0] === null) return null;
  const sep = str(args, 0);
  const parts: string[] = [];
  for (let i = 1; i < args.length; i++) if (args[i] !== null) parts.push(str(args, i));
  return parts.join(sep);
}, (a) => a[0]?.notNull ?? false);

/** SUBSTRING(s, pos[, len]): 1-based; negative pos counts from the end; pos 0 gives ''. */
const substring: FunctionDef = strictFn(2, 3, firstLength, (args) => {
  const cs = chars(str(args, 0));
  const pos = int(args, 1);
  const len = args.length > 2 ? int(args, 2) : cs.length;
  if (pos === 0 || len <= 0 || Math.abs(pos) > cs.length) return '';
  const start = pos > 0 ? pos - 1 : cs.length + pos;
  return cs.slice(start, start + len).join('');
});

const left: FunctionDef = strictFn(2, 2, firstLength, (args) => chars(str(args, 0)).slice(0, Math.max(0, int(args, 1))).join(''));
const right: FunctionDef = strictFn(2, 2, firstLength, (args) => {
  const n = int(args, 1);
  return n <= 0 ? '' : chars(str(args, 0)).slice(-n).join('');
});

function trimWith(s: string, rem: string, leading: boolean, trailing: boolean): string {
  if (rem === '') return s;
  let start = 0;
  let end = s.length;
  if (leading) while (s.startsWith(rem, start)) start += rem.length;
  if (trailing) while (end - rem.length >= start && s.startsWith(rem, end - rem.length)) end -= rem.length;
  return s.slice(start, end);
}

/**
 * TRIM(s) strips spaces both sides; TRIM(remstr, s) strips remstr both sides (`TRIM(remstr FROM s)`);
 * TRIM(mode, remstr, s) with mode 'LEADING' | 'TRAILING' | 'BOTH' (how the parser passes
 * `TRIM(LEADING x FROM s)`).
 */
const trim: FunctionDef = strictFn(1, 3, (a) => varcharType(displayLength((a[a.length - 1] ?? a[0])?.type ?? varcharType(0))), (args) => {
  if (args.length === 1) return trimWith(str(args, 0), ' ', true, true);
  if (args.length === 2) return trimWith(str(args, 1), str(args, 0), true, true);
  const mode = str(args, 0).toUpperCase();
  return trimWith(str(args, 2), str(args, 1), mode !== 'TRAILING', mode !== 'LEADING');
});

const replace: FunctionDef = strictFn(3, 3, firstLength, (args) => {
  const from = str(args, 1);
  return from === '' ? str(args, 0) : str(args, 0).split(from).join(str(args, 2));
});

const repeat: FunctionDef = strictFn(2, 2, () => textType(), (args) => {
  const n = int(args, 1);
  const s = str(args, 0);
  if (n <= 0 || s === '') return '';
  return s.length * n > MAX_RESULT_CHARS ? null : s.repeat(n);
});

function pad(leftSide: boolean): FunctionDef {
  return strictFn(3, 3, () => varcharType(255), (args) => {
    const cs = chars(str(args, 0));
    const len = int(args, 1);
    const fill = chars(str(args, 2));
    if (len < 0 || len > MAX_RESULT_CHARS) return null;
    if (cs.length >= len) return cs.slice(0, len).join('');
    if (fill.length === 0) return null;
    const need = len - cs.length;
    const padding: string[] = [];
    for (let i = 0; i < need; i++) padding.push(fill[i % fill.length] as string);
    return leftSide ? padding.join('') + cs.join('') : cs.join('') + padding.join('');
  });
}

/** 1-based code-point position of `sub` in `s` at or after `from` (1-based); 0 when absent. */
function locate(sub: string, s: string, from: number): bigint {
  if (from < 1) return 0n;
  const cs = chars(s);
  if (from > cs.length + 1) return 0n;
  const offset = cs.slice(0, from - 1).join('').length;
  const idx = s.indexOf(sub, offset);
  if (idx < 0) return 0n;
  return BigInt(chars(s.slice(0, idx)).length + 1);
}

const locateFn: FunctionDef = strictFn(2, 3, lengthType, (args) => locate(str(args, 0), str(args, 1), args.length > 2 ? int(args, 2) : 1));
const instr: FunctionDef = strictFn(2, 2, lengthType, (args) => locate(str(args, 1), str(args, 0), 1));

const octetLength: FunctionDef = strictFn(1, 1, lengthType, (args) => {
  const v = arg(args, 0);
  return BigInt(v instanceof Uint8Array ? v.length : utf8Encode(valueToString(v)).length);
});
const charLength: FunctionDef = strictFn(1, 1, lengthType, (args) => {
  const v = arg(args, 0);
  return BigInt(v instanceof Uint8Array ? v.length : chars(valueToString(v)).length);
});

const upper: FunctionDef = strictFn(1, 1, firstLength, (args) => str(args, 0).toUpperCase());
const lower: FunctionDef = strictFn(1, 1, firstLength, (args) => str(args, 0).toLowerCase());

export const STRING_FUNCTIONS: FunctionTable = {
  CONCAT: concat,
  CONCAT_WS: concatWs,
  LENGTH: octetLength,
  OCTET_LENGTH: octetLength,
  CHAR_LENGTH: charLength,
  CHARACTER_LENGTH: charLength,
  UPPER: upper,
  UCASE: upper,
  LOWER: lower,
  LCASE: lower,
  SUBSTRING: substring,
  SUBSTR: substring,
  MID: { ...substring, min: 3 },
  LEFT: left,
  RIGHT: right,
  TRIM: trim,
  LTRIM: strictFn(1, 1, firstLength, (args) => str(args, 0).replace(/^ +/, '')),
  RTRIM: strictFn(1, 1, firstLength, (args) => str(args, 0).replace(/ +$/, '')),
  REPLACE: replace,
  REPEAT: repeat,
  REVERSE: strictFn(1, 1, firstLength, (args) => chars(str(args, 0)).reverse().join('')),
  LPAD: pad(true),
  RPAD: pad(false),
  LOCATE: locateFn,
  POSITION: { ...locateFn, max: 2 },
  INSTR: instr,
  SPACE: strictFn(1, 1, () => textType(), (args) => {
    const n = int(args, 0);
    return n <= 0 ? '' : n > MAX_RESULT_CHARS ? null : ' '.repeat(n);
  }),
  ASCII: strictFn(1, 1, () => bigintType(3), (args) => {
    const v = arg(args, 0);
    const b = v instanceof Uint8Array ? v : utf8Encode(valueToString(v));
    return BigInt(b[0] ?? 0);
  }),
};

