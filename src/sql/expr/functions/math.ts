/** Numeric functions: ABS, CEIL, FLOOR, ROUND, TRUNCATE, MOD, POW, SQRT, EXP, LN, LOG*, PI, RAND, SIGN. */
import { Decimal, isIntegerType, type ColumnType } from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import { modulo, numericOf } from '../arithmetic.js';
import { bigintType, decimalType, doubleType } from '../result-types.js';
import { toBigInt, toDouble, INT64_MAX, INT64_MIN } from '../to-number.js';
import type { EvalContext, TypeInfo } from '../types.js';
import { arg, fixed, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

function sameNumeric(args: readonly TypeInfo[]): ColumnType {
  const t = args[0]?.type;
  if (t === undefined) return doubleType();
  if (isIntegerType(t)) return bigintType(21, t.unsigned);
  if (t.kind === 'decimal') return t;
  return doubleType();
}

function integral(args: readonly TypeInfo[]): ColumnType {
  const t = args[0]?.type;
  return t !== undefined && (isIntegerType(t) || t.kind === 'decimal') ? bigintType(21, t.unsigned) : doubleType();
}

function checkedInt(d: Decimal, name: string): bigint {
  const n = BigInt(d.toFixed(0));
  if (n < INT64_MIN || n > INT64_MAX) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'BIGINT', name);
  return n;
}

function ceilFloor(up: boolean): FunctionDef {
  return strictFn(1, 1, integral, (args) => {
    const x = numericOf(arg(args, 0));
    if (typeof x === 'bigint') return x;
    if (typeof x === 'number') return up ? Math.ceil(x) : Math.floor(x);
    return checkedInt(up ? x.ceil() : x.floor(), up ? 'ceiling' : 'floor');
  });
}

/** rint(): half to even, as MySQL rounds doubles. */
function rint(t: number): number {
  const f = Math.floor(t);
  const diff = t - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function roundDouble(x: number, d: number, truncate: boolean): number {
  const p = 10 ** Math.abs(d);
  const scaled = d >= 0 ? x * p : x / p;
  if (!Number.isFinite(scaled)) return x;
  const r = truncate ? Math.trunc(scaled) : rint(scaled);
  return d >= 0 ? r / p : r * p;
}

function roundExact(x: bigint | Decimal, d: number, truncate: boolean): bigint | Decimal {
  const mode = truncate ? Decimal.ROUND_DOWN : Decimal.ROUND_HALF_UP;
  const dec = x instanceof Decimal ? x : new Decimal(x.toString());
  if (d >= 0) return typeof x === 'bigint' ? x : dec.toDecimalPlaces(d, mode);
  const p = new Decimal(10).pow(-d);
  const r = dec.dividedBy(p).toDecimalPlaces(0, mode).times(p);
  return typeof x === 'bigint' ? BigInt(r.toFixed(0)) : r;
}

function roundType(args: readonly TypeInfo[], exprs: readonly { kind: string; value?: unknown }[]): ColumnType {
  const t = args[0]?.type;
  if (t === undefined || (!isIntegerType(t) && t.kind !== 'decimal')) return doubleType();
  if (isIntegerType(t)) return bigintType(21, t.unsigned);
  const dExpr = exprs[1];
  const d = dExpr === undefined ? 0 : dExpr.kind === 'literal' && typeof dExpr.value === 'bigint' ? Number(dExpr.value) : t.scale;
  const scale = Math.max(0, Math.min(t.scale, d));
  return decimalType(t.length - t.scale + scale + 1, scale);
}

function rounder(truncate: boolean): FunctionDef {
  return strictFn(truncate ? 2 : 1, 2, roundType, (args) => {
    const x = numericOf(arg(args, 0));
    const d = args.length > 1 ? Number(toBigInt(arg(args, 1))) : 0;
    if (typeof x === 'number') return roundDouble(x, d, truncate);
    return roundExact(x, d, truncate);
  });
}

function real(fn: (x: number) => number | null): FunctionDef {
  return strictFn(1, 1, fixed(doubleType()), (args) => fn(toDouble(arg(args, 0)) as number));
}

function logArg(x: number, ctx: EvalContext | null): boolean {
  if (x > 0) return true;
  ctx?.warn(3020, 'Invalid argument for logarithm');
  return false;
}

const log: FunctionDef = strictFn(1, 2, fixed(doubleType()), (args, ctx) => {
  const a = toDouble(arg(args, 0)) as number;
  if (args.length === 1) return logArg(a, ctx) ? Math.log(a) : null;
  const x = toDouble(arg(args, 1)) as number;
  if (a === 1) return null;
  return logArg(a, ctx) && logArg(x, ctx) ? Math.log(x) / Math.log(a) : null;
});

function logBase(fn: (x: number) => number): FunctionDef {
  return strictFn(1, 1, fixed(doubleType()), (args, ctx) => {
    const x = toDouble(arg(args, 0)) as number;
    return logArg(x, ctx) ? fn(x) : null;
  });
}

const pow: FunctionDef = strictFn(2, 2, fixed(doubleType()), (args) => {
  const r = Math.pow(toDouble(arg(args, 0)) as number, toDouble(arg(args, 1)) as number);
  if (!Number.isFinite(r)) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'DOUBLE', 'pow');
  return Number.isNaN(r) ? null : r;
});

const abs: FunctionDef = strictFn(1, 1, sameNumeric, (args) => {
  const x = numericOf(arg(args, 0));
  if (typeof x === 'bigint') {
    if (x === INT64_MIN) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'BIGINT', 'abs');
    return x < 0n ? -x : x;
  }
  return typeof x === 'number' ? Math.abs(x) : x.abs();
});

const sign: FunctionDef = strictFn(1, 1, fixed(bigintType(2)), (args) => {
  const x = numericOf(arg(args, 0));
  const s = typeof x === 'bigint' ? (x > 0n ? 1 : x < 0n ? -1 : 0) : typeof x === 'number' ? Math.sign(x) : x.comparedTo(0);
  return BigInt(s);
});

const mod: FunctionDef = strictFn(2, 2, (args) => mergeModType(args), (args, ctx) =>
  modulo(args[0] ?? null, args[1] ?? null, { text: 'mod', unsigned: false, divScale: -1 }, ctx),
);

function mergeModType(args: readonly TypeInfo[]): ColumnType {
  const ts = args.map((a) => a.type);
  if (ts.every(isIntegerType)) return bigintType(21);
  if (ts.every((t) => isIntegerType(t) || t.kind === 'decimal')) return decimalType(65, Math.max(...ts.map((t) => t.scale)));
  return doubleType();
}

/** MySQL's my_rnd generator, so RAND(seed) sequences match the server's. */
class MySqlRandom {
  #s1: number;
  #s2: number;
  static readonly MAX = 0x3fffffff;
  constructor(seed: number) {
    this.#s1 = (seed * 0x10001 + 55555555) % MySqlRandom.MAX;
    this.#s2 = (seed * 0x10000001) % MySqlRandom.MAX;
  }
  next(): number {
    this.#s1 = (this.#s1 * 3 + this.#s2) % MySqlRandom.MAX;
    this.#s2 = (this.#s1 + this.#s2 + 33) % MySqlRandom.MAX;
    return this.#s1 / MySqlRandom.MAX;
  }
}

const rand: FunctionDef = {
  min: 0,
  max: 1,
  type: fixed(doubleType()),
  notNull: () => true,
  compile: (args, c) => {
    const first = args[0];
    if (first === undefined) return () => Math.random();
    const seedOf = c.compile(first);
    let gen: MySqlRandom | null = null;
    return (row, ctx) => {
      if (gen === null) gen = new MySqlRandom(Number(BigInt.asUintN(32, toBigInt(seedOf(row, ctx)) ?? 0n)));
      return gen.next();
    };
  },
};

export const MATH_FUNCTIONS: FunctionTable = {
  ABS: abs,
  CEIL: ceilFloor(true),
  CEILING: ceilFloor(true),
  FLOOR: ceilFloor(false),
  ROUND: rounder(false),
  TRUNCATE: rounder(true),
  MOD: mod,
  POW: pow,
  POWER: pow,
  SQRT: real((x) => (x < 0 ? null : Math.sqrt(x))),
  EXP: real((x) => {
    const r = Math.exp(x);
    if (!Number.isFinite(r)) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'DOUBLE', `exp(${x})`);
    return r;
  }),
  LN: logBase(Math.log),
  LOG: log,
  LOG2: logBase(Math.log2),
  LOG10: logBase(Math.log10),
  PI: strictFn(0, 0, fixed(doubleType()), () => Math.PI),
  RAND: rand,
  SIGN: sign,
};

