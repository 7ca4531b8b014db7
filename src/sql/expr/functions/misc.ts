/**
 * Miscellaneous functions: UUID_SHORT, UUID_TO_BIN / BIN_TO_UUID, INET_ATON / INET_NTOA,
 * IS_IPV4 / IS_IPV6, TO_BASE64 / FROM_BASE64, CHARSET, COLLATION, COERCIBILITY, ANY_VALUE, BENCHMARK.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Expr } from '../../parse/ast.js';
import { SqlError } from '../../../errors/index.js';
import { isBinaryType, isStringType, type Value } from '../../../types/index.js';
import { fromHex, toHex, utf8Encode } from '../../../util/index.js';
import { bigintType, textType, varbinaryType, varcharType } from '../result-types.js';
import { toBigInt, toDouble } from '../to-number.js';
import type { Evaluator, TypeInfo } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { always, arg, fixed, nullableFn, strictFn, type CompileHelper, type FunctionDef, type FunctionTable } from './function-def.js';

function bytesOf(v: Exclude<Value, null>): Uint8Array {
  return v instanceof Uint8Array ? v : utf8Encode(valueToString(v));
}

/** UUID_SHORT(): (server_id & 255) << 56 | start-up seconds << 24, plus a counter. */
let uuidShortNext = (BigInt(Math.floor(Date.now() / 1000)) & 0xffffffffn) << 24n;

const uuidShort: FunctionDef = nullableFn(0, 0, fixed(bigintType(21, true)), (_a, ctx) => {
  const serverId = toBigInt(ctx.getVariable('global', 'server_id')) ?? 0n;
  uuidShortNext += 1n;
  return ((serverId & 255n) << 56n) + uuidShortNext;
}, always);

function uuidError(v: Exclude<Value, null>, fn: string): SqlError {
  return SqlError.of('ER_WRONG_VALUE_FOR_TYPE', 'string', valueToString(v), fn);
}

/** UUID_TO_BIN(uuid[, swap]): 16 bytes; swap moves the time-high group first (index-friendly). */
const uuidToBin: FunctionDef = strictFn(1, 2, fixed(varbinaryType(16)), (args) => {
  const v = arg(args, 0);
  if (!uuidShape(valueToString(v))) throw uuidError(v, 'uuid_to_bin');
  const hex = valueToString(v).replace(/[{}-]/g, '');
  const swap = args.length > 1 && (toBigInt(arg(args, 1)) ?? 0n) !== 0n;
  const h = swap ? hex.slice(12, 16) + hex.slice(8, 12) + hex.slice(0, 8) + hex.slice(16) : hex;
  return fromHex(h.toLowerCase());
});

/** The text forms MySQL accepts: 32 hex digits, or 8-4-4-4-12 with dashes, optionally in braces. */
function uuidShape(s: string): boolean {
  const body = s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1) : s;
  return /^[0-9a-fA-F]{32}$/.test(body) || /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(body);
}

const binToUuid: FunctionDef = strictFn(1, 2, fixed(varcharType(36)), (args) => {
  const v = arg(args, 0);
  const b = bytesOf(v);
  if (b.length !== 16) throw uuidError(v, 'bin_to_uuid');
  let h = toHex(b).toLowerCase();
  if (args.length > 1 && (toBigInt(arg(args, 1)) ?? 0n) !== 0n) h = h.slice(8, 16) + h.slice(4, 8) + h.slice(0, 4) + h.slice(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
});

/** INET_ATON('a.b.c.d'); short forms as MySQL ('127.1' is 127.0.0.1); NULL when not an address. */
const inetAton: FunctionDef = strictFn(1, 1, fixed(bigintType(21, true)), (args) => {
  const s = valueToString(arg(args, 0));
  if (!/^\d{1,3}(\.\d{1,3}){0,3}$/.test(s)) return null;
  const parts = s.split('.').map(Number);
  if (parts.some((p) => p > 255)) return null;
  const last = parts.pop() as number;
  let n = 0n;
  for (const p of parts) n = n * 256n + BigInt(p);
  return (n << BigInt(8 * (4 - parts.length))) + BigInt(last);
});

const inetNtoa: FunctionDef = strictFn(1, 1, fixed(varcharType(15)), (args) => {
  const d = toDouble(arg(args, 0));
  if (d === null || d < 0 || d > 4294967295) return null;
  const n = Number(toBigInt(arg(args, 0)) ?? 0n);
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
});

/** TO_BASE64: a newline after every 76 output characters, as MySQL writes it. */
const toBase64: FunctionDef = strictFn(1, 1, () => textType(), (args) => {
  const b64 = Buffer.from(bytesOf(arg(args, 0))).toString('base64');
  return b64.replace(/(.{76})(?=.)/g, '$1\n');
});

const fromBase64: FunctionDef = strictFn(1, 1, () => varbinaryType(-1), (args) => {
  const s = valueToString(arg(args, 0)).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1) return null;
  return new Uint8Array(Buffer.from(s, 'base64'));
});

function collationOf(t: TypeInfo, e: Expr | undefined, connection: string): string {
  if (!isStringType(t.type) || isBinaryType(t.type)) return 'binary';
  return e?.kind === 'column' ? t.type.collation : connection;
}

function charsetOfCollation(c: string): string {
  return c === 'binary' ? 'binary' : (c.split('_')[0] ?? c);
}

/** CHARSET(x) / COLLATION(x): from the argument's type; literals take the connection's. */
function collationFn(charset: boolean): FunctionDef {
  return {
    min: 1,
    max: 1,
    type: fixed(varcharType(64)),
    notNull: always,
    compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
      const e = args[0] as Expr;
      const t = c.typeOf(e);
      return (_row, ctx) => {
        const coll = collationOf(t, e, valueToString(ctx.getVariable('session', 'collation_connection')));
        return charset ? charsetOfCollation(coll) : coll;
      };
    },
  };
}

/** COERCIBILITY(x): 2 column, 4 coercible literal, 5 numeric, 6 NULL, 3 system constants. */
const coercibility: FunctionDef = {
  min: 1,
  max: 1,
  type: fixed(bigintType(1)),
  notNull: always,
  compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
    const e = args[0] as Expr;
    const t = c.typeOf(e);
    let n = 4n;
    if (e.kind === 'literal' && e.value === null) n = 6n;
    else if (!isStringType(t.type)) n = 5n;
    else if (e.kind === 'column') n = 2n;
    else if (e.kind === 'func' && ['USER', 'CURRENT_USER', 'DATABASE', 'VERSION', 'SCHEMA'].includes(e.name)) n = 3n;
    return () => n;
  },
};

const anyValue: FunctionDef = {
  min: 1,
  max: 1,
  type: (a) => a[0]?.type ?? varcharType(0),
  notNull: (a) => a[0]?.notNull ?? false,
  compile: (args: readonly Expr[], c: CompileHelper): Evaluator => c.compile(args[0] as Expr),
};

/** BENCHMARK(n, expr): evaluates expr n times (at most a million) and returns 0. */
const benchmark: FunctionDef = {
  min: 2,
  max: 2,
  type: fixed(bigintType(1)),
  notNull: () => false,
  compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
    const count = c.compile(args[0] as Expr);
    const expr = c.compile(args[1] as Expr);
    return (row, ctx) => {
      const n = toBigInt(count(row, ctx));
      if (n === null) return null;
      const times = n > 1_000_000n ? 1_000_000 : Number(n);
      for (let i = 0; i < times; i++) expr(row, ctx);
      return 0n;
    };
  },
};

export const MISC_FUNCTIONS: FunctionTable = {
  UUID_SHORT: uuidShort,
  UUID_TO_BIN: uuidToBin,
  BIN_TO_UUID: binToUuid,
  IS_UUID: nullableFn(1, 1, fixed(bigintType(1)), (args) => (args[0] === null || args[0] === undefined ? null : uuidShape(valueToString(args[0])) ? 1n : 0n)),
  INET_ATON: inetAton,
  INET_NTOA: inetNtoa,
  IS_IPV4: nullableFn(1, 1, fixed(bigintType(1)), (args) => (args[0] != null && isIPv4(valueToString(args[0])) ? 1n : 0n), always),
  IS_IPV6: nullableFn(1, 1, fixed(bigintType(1)), (args) => (args[0] != null && isIPv6(valueToString(args[0])) ? 1n : 0n), always),
  TO_BASE64: toBase64,
  FROM_BASE64: fromBase64,
  CHARSET: collationFn(true),
  COLLATION: collationFn(false),
  COERCIBILITY: coercibility,
  ANY_VALUE: anyValue,
  BENCHMARK: benchmark,
};
