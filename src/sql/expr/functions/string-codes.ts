/** Encoding and digest functions: HEX, UNHEX, MD5, SHA1, SHA2, UUID, CHAR, BIN, OCT, CONV, FORMAT. */
import { createHash, randomUUID } from 'node:crypto';
import { Decimal, type Value } from '../../../types/index.js';
import { fromHex, toHex, utf8Encode } from '../../../util/index.js';
import { bigintType, varbinaryType, varcharType } from '../result-types.js';
import { toBigInt, toBitOperand, toDecimal } from '../to-number.js';
import { valueToString } from '../value-to-string.js';
import { arg, fixed, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

function bytesOf(v: Exclude<Value, null>): Uint8Array {
  return v instanceof Uint8Array ? v : utf8Encode(valueToString(v));
}

/** HEX(str) is the bytes in upper-case hex; HEX(number) the 64-bit two's-complement value in hex. */
const hex: FunctionDef = strictFn(1, 1, fixed(varcharType(64)), (args) => {
  const v = arg(args, 0);
  if (typeof v === 'string' || v instanceof Uint8Array) return toHex(bytesOf(v)).toUpperCase();
  return (toBitOperand(v) ?? 0n).toString(16).toUpperCase();
});

const unhex: FunctionDef = strictFn(1, 1, fixed(varbinaryType(32)), (args) => {
  let s = valueToString(arg(args, 0));
  if (!/^[0-9a-fA-F]*$/.test(s)) return null;
  if (s.length % 2 === 1) s = `0${s}`;
  return fromHex(s);
});

function digest(algorithm: string): (args: readonly Value[]) => Value {
  return (args) => createHash(algorithm).update(bytesOf(arg(args, 0))).digest('hex');
}

const sha2: FunctionDef = strictFn(2, 2, fixed(varcharType(128)), (args) => {
  const bits = Number(toBigInt(arg(args, 1)));
  const algo = bits === 0 || bits === 256 ? 'sha256' : bits === 224 ? 'sha224' : bits === 384 ? 'sha384' : bits === 512 ? 'sha512' : null;
  return algo === null ? null : createHash(algo).update(bytesOf(arg(args, 0))).digest('hex');
});

/** A hex/bit literal in numeric context: its bytes as a big-endian unsigned number. */
function bytesToNumber(b: Uint8Array): bigint {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  return n;
}

/** CHAR(n, ...): each integer as its big-endian bytes (leading zero bytes dropped); NULLs skipped. */
const charFn: FunctionDef = nullableFn(1, Infinity, (a) => varbinaryType(a.length * 4), (args) => {
  const out: number[] = [];
  for (const v of args) {
    if (v === null) continue;
    let n = BigInt.asUintN(32, v instanceof Uint8Array ? bytesToNumber(v) : toBigInt(v) ?? 0n);
    const bytes: number[] = [];
    while (n > 0n) {
      bytes.unshift(Number(n & 0xffn));
      n >>= 8n;
    }
    out.push(...bytes);
  }
  return new Uint8Array(out);
}, () => true);

/**
 * CONV(n, from_base, to_base), minimal: bases 2..36 (a negative to_base prints signed), the
 * number read as an unsigned 64-bit value from its longest valid prefix.
 */
function conv(value: Value, fromBase: number, toBase: number): Value {
  const from = Math.abs(fromBase);
  const to = Math.abs(toBase);
  if (from < 2 || from > 36 || to < 2 || to > 36 || value === null) return null;
  const s = valueToString(value).trim().toLowerCase();
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  let n = 0n;
  for (const ch of digits) {
    const d = parseInt(ch, 36);
    if (Number.isNaN(d) || d >= from) break;
    n = n * BigInt(from) + BigInt(d);
  }
  n = BigInt.asUintN(64, neg ? -n : n);
  if (toBase < 0 && n > (1n << 63n) - 1n) return `-${((1n << 64n) - n).toString(to).toUpperCase()}`;
  return n.toString(to).toUpperCase();
}

const convFn: FunctionDef = strictFn(3, 3, fixed(varcharType(64)), (args) => conv(arg(args, 0), Number(toBigInt(arg(args, 1))), Number(toBigInt(arg(args, 2)))));

function baseFn(base: number): FunctionDef {
  return strictFn(1, 1, fixed(varcharType(64)), (args) => conv(valueToString(toBigInt(arg(args, 0))), 10, base));
}

/** FORMAT(x, d): rounded half away to d decimals (max 30) with ',' thousands separators (en_US). */
const format: FunctionDef = strictFn(2, 3, fixed(varcharType(128)), (args) => {
  const d = Math.max(0, Math.min(30, Number(toBigInt(arg(args, 1)))));
  const x = (toDecimal(arg(args, 0)) as Decimal).toDecimalPlaces(d, Decimal.ROUND_HALF_UP);
  const [int = '0', frac] = x.abs().toFixed(d).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${x.isNegative() && !x.isZero() ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
});

export const CODE_FUNCTIONS: FunctionTable = {
  HEX: hex,
  UNHEX: unhex,
  MD5: strictFn(1, 1, fixed(varcharType(32)), digest('md5')),
  SHA1: strictFn(1, 1, fixed(varcharType(40)), digest('sha1')),
  SHA: strictFn(1, 1, fixed(varcharType(40)), digest('sha1')),
  SHA2: sha2,
  /** A random (version 4) UUID; MySQL returns version 1. */
  UUID: nullableFn(0, 0, fixed(varcharType(36)), () => randomUUID(), () => true),
  CHAR: charFn,
  BIN: baseFn(2),
  OCT: baseFn(8),
  CONV: convFn,
  FORMAT: format,
  BIT_LENGTH: strictFn(1, 1, fixed(bigintType(10)), (args) => BigInt(bytesOf(arg(args, 0)).length * 8)),
};
