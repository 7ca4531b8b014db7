/** fast-check arbitraries and comparison helpers shared by the codec tests. */
import fc from 'fast-check';
import type { ColumnType, Value } from '../../src/types/index.js';
import { DateTime, Decimal, Duration, integerBounds, makeType } from '../../src/types/index.js';
import { compareBytes, toHex, utf8Encode } from '../../src/util/index.js';

export const INT_KINDS = ['tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'year'] as const;

export function intType(kind: (typeof INT_KINDS)[number], unsigned: boolean): ColumnType {
  return makeType(kind, { unsigned });
}

/** Integers of a type, biased to its bounds and to 0/±1. */
export function intValue(t: ColumnType): fc.Arbitrary<bigint> {
  const { min, max } = integerBounds(t);
  const edges = [min, max, min + 1n, max - 1n, 0n, 1n, ...(min < 0n ? [-1n] : [])];
  return fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min, max }));
}

export const doubleValue = fc.double({ noNaN: true });

export const stringValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\0', 'a\0b', '\0\0\0\0\0\0\0\0', 'abcdefgh', 'abcdefghi', 'héllo', '日本語', '😀', 'a\u0000'),
);

export const bytesValue = fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(new Uint8Array(0), new Uint8Array(8), new Uint8Array([0xff, 0xff])));

export const decimalTypeArb = fc
  .integer({ min: 1, max: 65 })
  .chain((m) => fc.integer({ min: 0, max: Math.min(30, m) }).map((d) => makeType('decimal', { length: m, scale: d })));

/** A decimal that fits DECIMAL(M,D), with exactly D fraction digits. */
export function decimalValue(t: ColumnType): fc.Arbitrary<Decimal> {
  const intg = t.length - t.scale;
  const digits = (n: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((a) => a.join(''));
  return fc
    .tuple(fc.boolean(), fc.integer({ min: 0, max: intg }).chain(digits), digits(t.scale), fc.constantFrom('any', 'zero', 'max'))
    .map(([neg, ip, fp, shape]) => {
      if (shape === 'zero') return new Decimal(0);
      const i = shape === 'max' ? '9'.repeat(intg) : ip;
      const f = shape === 'max' ? '9'.repeat(t.scale) : fp;
      const text = `${neg ? '-' : ''}${i === '' ? '0' : i}${f === '' ? '' : '.' + f}`;
      return new Decimal(text);
    });
}

export function dateValue(): fc.Arbitrary<DateTime> {
  return fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 31 }))
    .map(([y, m, d]) => new DateTime('date', y, m, d));
}

export function datetimeValue(fsp: number): fc.Arbitrary<DateTime> {
  return fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 31 }),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 999_999 }),
    )
    .map(([y, mo, d, h, mi, s, us]) => new DateTime('datetime', y, mo, d, h, mi, s, us, 6).withKind('datetime', fsp));
}

const MAX_TIME_MICROS = (838n * 3600n + 59n * 60n + 59n) * 1_000_000n + 999_999n;

export function durationValue(fsp: number): fc.Arbitrary<Duration> {
  return fc.bigInt({ min: -MAX_TIME_MICROS, max: MAX_TIME_MICROS }).map((m) => new Duration(m, fsp));
}

/** Every column type the codec handles, with a generator of its values (no NULLs). */
export interface TypedArb {
  readonly type: ColumnType;
  readonly value: fc.Arbitrary<Value>;
}

export const typedArb: fc.Arbitrary<TypedArb> = fc.oneof(
  fc.tuple(fc.constantFrom(...INT_KINDS), fc.boolean()).map(([k, u]) => {
    const type = intType(k, u);
    return { type, value: intValue(type) as fc.Arbitrary<Value> };
  }),
  fc.constantFrom('float', 'double').map((k) => ({ type: makeType(k as 'float'), value: doubleValue as fc.Arbitrary<Value> })),
  decimalTypeArb.map((type) => ({ type, value: decimalValue(type) as fc.Arbitrary<Value> })),
  fc.constantFrom('char', 'varchar', 'text').map((k) => ({ type: makeType(k as 'char', { length: 255, collation: 'utf8mb4_bin' }), value: stringValue as fc.Arbitrary<Value> })),
  fc.constantFrom('binary', 'varbinary', 'blob').map((k) => ({ type: makeType(k as 'blob', { length: 255 }), value: bytesValue as fc.Arbitrary<Value> })),
  fc.constant({ type: makeType('date'), value: dateValue() as fc.Arbitrary<Value> }),
  fc.tuple(fc.constantFrom('datetime', 'timestamp'), fc.integer({ min: 0, max: 6 })).map(([k, fsp]) => ({
    type: makeType(k as 'datetime', { scale: fsp }),
    value: datetimeValue(fsp) as fc.Arbitrary<Value>,
  })),
  fc.integer({ min: 0, max: 6 }).map((fsp) => ({ type: makeType('time', { scale: fsp }), value: durationValue(fsp) as fc.Arbitrary<Value> })),
);

/** A canonical, comparable form of a value (Object.is for numbers, so -0 is kept apart). */
export function norm(v: Value | undefined): unknown {
  if (v === undefined || v === null || typeof v === 'bigint' || typeof v === 'string') return v;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : v;
  if (v instanceof Uint8Array) return `bytes:${toHex(v)}`;
  if (v instanceof Decimal) return `dec:${v.toString()}`;
  if (v instanceof DateTime) return `dt:${v.kind}:${v.fsp}:${v.year}-${v.month}-${v.day} ${v.hour}:${v.minute}:${v.second}.${v.micro}`;
  return `dur:${v.fsp}:${v.micros}`;
}

/** Natural SQL order of two non-NULL values of the same column type (strings by UTF-8 bytes). */
export function naturalCompare(a: Value, b: Value): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareBytes(utf8Encode(a), utf8Encode(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof Decimal && b instanceof Decimal) return a.cmp(b);
  if (a instanceof DateTime && b instanceof DateTime) return naturalCompare(a.toPacked(), b.toPacked());
  if (a instanceof Duration && b instanceof Duration) return naturalCompare(a.micros, b.micros);
  throw new Error('incomparable values');
}

export function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
