/** Trigonometry and bit/checksum functions: SIN..ATAN2, COT, RADIANS, DEGREES, BIT_COUNT, CRC32, INTERVAL(). */
import { SqlError } from '../../../errors/index.js';
import type { Value } from '../../../types/index.js';
import { utf8Encode } from '../../../util/index.js';
import { compareValues } from '../compare.js';
import { bigintType, doubleType } from '../result-types.js';
import { toBitOperand, toDouble } from '../to-number.js';
import { valueToString } from '../value-to-string.js';
import { always, arg, fixed, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

function real(fn: (x: number) => number | null): FunctionDef {
  return strictFn(1, 1, fixed(doubleType()), (args) => {
    const r = fn(toDouble(arg(args, 0)) as number);
    return r === null || Number.isNaN(r) ? null : r;
  });
}

/** ATAN(y) or ATAN(y, x) (= ATAN2). */
const atan: FunctionDef = strictFn(1, 2, fixed(doubleType()), (args) => {
  const y = toDouble(arg(args, 0)) as number;
  return args.length === 1 ? Math.atan(y) : Math.atan2(y, toDouble(arg(args, 1)) as number);
});

const cot: FunctionDef = strictFn(1, 1, fixed(doubleType()), (args) => {
  const x = toDouble(arg(args, 0)) as number;
  const t = Math.tan(x);
  if (t === 0) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'DOUBLE', `cot(${valueToString(arg(args, 0))})`);
  return 1 / t;
});

const bitCount: FunctionDef = strictFn(1, 1, fixed(bigintType(2)), (args) => {
  let n = toBitOperand(arg(args, 0)) ?? 0n;
  let c = 0n;
  while (n > 0n) {
    c += n & 1n;
    n >>= 1n;
  }
  return c;
});

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[i] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = (crcTable[(crc ^ b) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const crc32Fn: FunctionDef = strictFn(1, 1, fixed(bigintType(10, true)), (args) => {
  const v = arg(args, 0);
  return BigInt(crc32(v instanceof Uint8Array ? v : utf8Encode(valueToString(v))));
});

/** INTERVAL(n, n1, n2, ...): how many of the (ascending) n1, n2 ... are <= n; -1 when n is NULL. */
const intervalFn: FunctionDef = nullableFn(2, Infinity, fixed(bigintType(2)), (args: readonly Value[]) => {
  const n = args[0] ?? null;
  if (n === null) return -1n;
  let i = 1;
  while (i < args.length) {
    const c = compareValues(n, args[i] ?? null);
    if (c !== null && c < 0) break;
    i++;
  }
  return BigInt(i - 1);
}, always);

export const MATH_MORE_FUNCTIONS: FunctionTable = {
  SIN: real(Math.sin),
  COS: real(Math.cos),
  TAN: real(Math.tan),
  ASIN: real((x) => (x < -1 || x > 1 ? null : Math.asin(x))),
  ACOS: real((x) => (x < -1 || x > 1 ? null : Math.acos(x))),
  ATAN: atan,
  ATAN2: { ...atan, min: 2 },
  COT: cot,
  RADIANS: real((x) => (x * Math.PI) / 180),
  DEGREES: real((x) => (x * 180) / Math.PI),
  BIT_COUNT: bitCount,
  CRC32: crc32Fn,
  INTERVAL: intervalFn,
};
