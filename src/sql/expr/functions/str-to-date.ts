/**
 * STR_TO_DATE(str, format): the inverse of DATE_FORMAT. The result is a DATETIME when the
 * format has date and time parts, a DATE with only date parts, a TIME with only time parts
 * (decided from a literal format at compile time; DATETIME otherwise). A string that does not
 * match gives NULL with warning 1411.
 */
import type { Expr } from '../../parse/ast.js';
import { DateTime, Duration, type ColumnType } from '../../../types/index.js';
import { isValidDate } from '../date-math.js';
import { dateType, datetimeType, timeType } from '../result-types.js';
import type { EvalContext, Evaluator } from '../types.js';
import { valueToString } from '../value-to-string.js';
import type { CompileHelper, FunctionDef, FunctionTable } from './function-def.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DATE_SPECS = new Set(['Y', 'y', 'm', 'c', 'd', 'e', 'M', 'b', 'j', 'D']);
const TIME_SPECS = new Set(['H', 'k', 'h', 'I', 'l', 'i', 's', 'S', 'f', 'p', 'T', 'r']);

interface Parts {
  y: number; mo: number; d: number; h: number; mi: number; s: number; us: number; pm: boolean | null; yday: number;
}

function resultType(format: string | null): ColumnType {
  if (format === null) return datetimeType(6);
  const specs = Array.from(format.matchAll(/%(.)/g), (m) => m[1] as string);
  const hasDate = specs.some((c) => DATE_SPECS.has(c));
  const hasTime = specs.some((c) => TIME_SPECS.has(c));
  const fsp = specs.includes('f') ? 6 : 0;
  if (hasDate && !hasTime) return dateType();
  if (hasTime && !hasDate) return timeType(fsp);
  return datetimeType(fsp);
}

class Reader {
  pos = 0;
  constructor(readonly s: string) {}
  number(maxDigits: number): number | null {
    const m = new RegExp(`^[+-]?\\d{1,${maxDigits}}`).exec(this.s.slice(this.pos));
    if (m === null) return null;
    this.pos += m[0].length;
    return Number(m[0]);
  }
  name(list: readonly string[], abbrev: boolean): number | null {
    const rest = this.s.slice(this.pos).toLowerCase();
    for (let i = 0; i < list.length; i++) {
      const full = list[i] as string;
      const n = abbrev ? full.slice(0, 3) : full;
      if (rest.startsWith(n)) {
        this.pos += n.length;
        return i;
      }
    }
    return null;
  }
}

/** Applies one specifier; false when the input does not match it. */
function spec(c: string, r: Reader, p: Parts): boolean {
  const num = (digits: number, set: (n: number) => void): boolean => {
    const n = r.number(digits);
    if (n === null) return false;
    set(n);
    return true;
  };
  switch (c) {
    case 'Y': {
      const start = r.pos;
      return num(4, (n) => (p.y = r.pos - start <= 2 ? (n < 70 ? 2000 + n : 1900 + n) : n));
    }
    case 'y': return num(2, (n) => (p.y = n < 70 ? 2000 + n : 1900 + n));
    case 'm': case 'c': return num(2, (n) => (p.mo = n));
    case 'd': case 'e': return num(2, (n) => (p.d = n));
    case 'D': return num(2, (n) => (p.d = n)) && (r.name(['st', 'nd', 'rd', 'th'], false) !== null);
    case 'H': case 'k': case 'h': case 'I': case 'l': return num(2, (n) => (p.h = n));
    case 'i': return num(2, (n) => (p.mi = n));
    case 's': case 'S': return num(2, (n) => (p.s = n));
    case 'j': return num(3, (n) => (p.yday = n));
    case 'f': {
      const m = /^\d{1,6}/.exec(r.s.slice(r.pos));
      if (m === null) return false;
      r.pos += m[0].length;
      p.us = Number(m[0].padEnd(6, '0'));
      return true;
    }
    case 'p': {
      const i = r.name(['am', 'pm'], false);
      if (i === null) return false;
      p.pm = i === 1;
      return true;
    }
    case 'M': case 'b': {
      const i = r.name(MONTHS, c === 'b');
      if (i === null) return false;
      p.mo = i + 1;
      return true;
    }
    case 'W': case 'a': return r.name(DAYS, c === 'a') !== null;
    case 'T': return spec('H', r, p) && lit(':', r) && spec('i', r, p) && lit(':', r) && spec('s', r, p);
    case 'r': return spec('h', r, p) && lit(':', r) && spec('i', r, p) && lit(':', r) && spec('s', r, p) && skipSpace(r) && spec('p', r, p);
    case '%': return lit('%', r);
    default: return lit(c, r);
  }
}

function lit(ch: string, r: Reader): boolean {
  if (r.s[r.pos] !== ch) return false;
  r.pos++;
  return true;
}

function skipSpace(r: Reader): boolean {
  while (r.pos < r.s.length && /\s/.test(r.s[r.pos] as string)) r.pos++;
  return true;
}

function parse(input: string, format: string): Parts | null {
  const p: Parts = { y: 0, mo: 0, d: 0, h: 0, mi: 0, s: 0, us: 0, pm: null, yday: 0 };
  const r = new Reader(input);
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (/\s/.test(ch)) {
      skipSpace(r);
      continue;
    }
    skipSpace(r);
    if (ch === '%' && i + 1 < format.length) {
      if (!spec(format[++i] as string, r, p)) return null;
    } else if (!lit(ch, r)) return null;
  }
  if (p.pm !== null) {
    if (p.h > 12 || p.h < 1) return null;
    p.h = (p.h % 12) + (p.pm ? 12 : 0);
  }
  return p;
}

function build(p: Parts, type: ColumnType): DateTime | Duration | null {
  if (type.kind === 'time') return new Duration(BigInt(((p.h * 60 + p.mi) * 60 + p.s) * 1_000_000 + p.us), type.scale);
  if (p.yday > 0) {
    const jan1 = new Date(Date.UTC(p.y, 0, p.yday));
    p.mo = jan1.getUTCMonth() + 1;
    p.d = jan1.getUTCDate();
  }
  if (p.mi > 59 || p.s > 59 || p.h > 23) return null;
  if (!(p.mo === 0 || p.d === 0 ? p.mo <= 12 && p.d <= 31 : isValidDate(p.y, p.mo, p.d))) return null;
  if (type.kind === 'date') return new DateTime('date', p.y, p.mo, p.d);
  return new DateTime('datetime', p.y, p.mo, p.d, p.h, p.mi, p.s, p.us, type.scale);
}

function literalFormat(e: Expr | undefined): string | null {
  return e?.kind === 'literal' && typeof e.value === 'string' ? e.value : null;
}

const strToDate: FunctionDef = {
  min: 2,
  max: 2,
  type: (_a, e) => resultType(literalFormat(e[1])),
  notNull: () => false,
  compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
    const type = resultType(literalFormat(args[1]));
    const str = c.compile(args[0] as Expr);
    const fmt = c.compile(args[1] as Expr);
    return (row, ctx: EvalContext) => {
      const s = str(row, ctx);
      const f = fmt(row, ctx);
      if (s === null || f === null) return null;
      const text = valueToString(s);
      const parts = parse(text, valueToString(f));
      const out = parts === null ? null : build(parts, type);
      if (out === null) ctx.warn(1411, `Incorrect datetime value: '${text}' for function str_to_date`);
      return out;
    };
  },
};

export const STR_TO_DATE_FUNCTIONS: FunctionTable = { STR_TO_DATE: strToDate };
