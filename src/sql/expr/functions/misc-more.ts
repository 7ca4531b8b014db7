/** TIMESTAMP(expr[, time]), CURRENT_ROLE, RANDOM_BYTES, INET6_ATON / INET6_NTOA, EXPORT_SET. */
import { randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { DateTime } from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import { fromMicros, toMicros } from '../date-math.js';
import { datetimeType, textType, varbinaryType, varcharType } from '../result-types.js';
import { toDurationOf } from '../temporal-convert.js';
import { toBigInt } from '../to-number.js';
import { valueToString } from '../value-to-string.js';
import { utf8Decode } from '../../../util/index.js';
import { CODE_FUNCTIONS } from './string-codes.js';
import { dateArg } from './datetime.js';
import { always, arg, fixed, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

/** TIMESTAMP(d): d as DATETIME; TIMESTAMP(d, t): plus the time t. */
const timestamp: FunctionDef = strictFn(1, 2, (a) => datetimeType(Math.max(a[0]?.type.kind === 'datetime' ? a[0].type.scale : 0, a[1]?.type.kind === 'time' ? a[1].type.scale : 0)), (args, ctx) => {
  const dt = dateArg(arg(args, 0), ctx);
  if (dt === null) return null;
  const base = new DateTime('datetime', dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.micro, dt.kind === 'date' ? 0 : dt.fsp);
  if (args.length === 1) return base;
  const t = toDurationOf(arg(args, 1), -1);
  if (t === null) return null;
  const micros = toMicros(base) + t.micros;
  return micros < 0n ? null : fromMicros(micros, 'datetime', Math.max(base.fsp, t.fsp));
});

const randomBytesFn: FunctionDef = strictFn(1, 1, fixed(varbinaryType(1024)), (args) => {
  const n = toBigInt(arg(args, 0)) ?? 0n;
  if (n < 1n || n > 1024n) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'length', 'random_bytes');
  return new Uint8Array(randomBytes(Number(n)));
});

function ipv6Bytes(s: string): Uint8Array | null {
  if (isIPv4(s)) return new Uint8Array(s.split('.').map(Number));
  if (!isIPv6(s)) return null;
  let text = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const tail: number[] = [];
  if (v4 !== null) {
    tail.push(...(v4[1] as string).split('.').map(Number));
    text = text.slice(0, -(v4[1] as string).length) + '0:0';
  }
  const [head = '', rest] = text.split('::');
  const h = head === '' ? [] : head.split(':');
  const r = rest === undefined ? [] : rest === '' ? [] : rest.split(':');
  const groups = rest === undefined ? h : [...h, ...new Array<string>(8 - h.length - r.length).fill('0'), ...r];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 255;
  });
  if (tail.length === 4) out.set(tail, 12);
  return out;
}

const inet6Aton: FunctionDef = strictFn(1, 1, fixed(varbinaryType(16)), (args) => ipv6Bytes(valueToString(arg(args, 0))));

const inet6Ntoa: FunctionDef = strictFn(1, 1, fixed(varcharType(39)), (args) => {
  const v = arg(args, 0);
  if (!(v instanceof Uint8Array)) return null;
  if (v.length === 4) return Array.from(v).join('.');
  if (v.length !== 16) return null;
  const v4 = Array.from(v.slice(12)).join('.');
  if (v.slice(0, 10).every((b) => b === 0) && v[10] === 255 && v[11] === 255) return `::ffff:${v4}`;
  if (v.slice(0, 12).every((b) => b === 0) && (v[12] !== 0 || v[13] !== 0)) return `::${v4}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((v[i] as number) << 8) | (v[i + 1] as number));
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
});

/** EXPORT_SET(bits, on, off[, separator[, number_of_bits]]). */
const exportSet: FunctionDef = strictFn(3, 5, () => textType(), (args) => {
  const bits = BigInt.asUintN(64, toBigInt(arg(args, 0)) ?? 0n);
  const on = valueToString(arg(args, 1));
  const off = valueToString(arg(args, 2));
  const sep = args.length > 3 ? valueToString(arg(args, 3)) : ',';
  const nRaw = args.length > 4 ? toBigInt(arg(args, 4)) ?? 64n : 64n;
  const n = nRaw < 0n || nRaw > 64n ? 64 : Number(nRaw);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push((bits >> BigInt(i)) & 1n ? on : off);
  return parts.join(sep);
});

/** `CHAR(n, ... USING charset)` (lib-rewrites.ts): CHAR's bytes as a (UTF-8) string. */
const charUsing: FunctionDef = {
  ...CODE_FUNCTIONS['CHAR'] as FunctionDef,
  type: (a) => varcharType(a.length * 4),
  call: (args, ctx) => {
    const v = (CODE_FUNCTIONS['CHAR'] as FunctionDef).call?.(args, ctx) ?? null;
    return v instanceof Uint8Array ? utf8Decode(v) : v;
  },
};

export const MISC_MORE_FUNCTIONS: FunctionTable = {
  SHALE_CHAR_USING: charUsing,
  TIMESTAMP: timestamp,
  CURRENT_ROLE: nullableFn(0, 0, fixed(varcharType(4)), () => 'NONE', always),
  RANDOM_BYTES: randomBytesFn,
  INET6_ATON: inet6Aton,
  INET6_NTOA: inet6Ntoa,
  EXPORT_SET: exportSet,
};
