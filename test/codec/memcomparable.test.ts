import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { decodeKeyValues, encodeKeyValues } from '../../src/codec/index.js';
import type { ColumnType, Value } from '../../src/types/index.js';
import { DateTime, Decimal, Duration, makeType } from '../../src/types/index.js';
import { compareBytes, fromHex, toHex } from '../../src/util/index.js';
import { INT_KINDS, intType, intValue, naturalCompare, norm, sign, typedArb, type TypedArb } from './arbitraries.js';

const INT = makeType('bigint');
const UINT = makeType('bigint', { unsigned: true });
const DOUBLE = makeType('double');
const VARCHAR = makeType('varchar', { length: 20, collation: 'utf8mb4_bin' });
const BLOB = makeType('blob');

function enc1(v: Value, t: ColumnType): Uint8Array {
  return encodeKeyValues([v], [t]);
}

function dec1(b: Uint8Array, t: ColumnType): Value {
  const r = decodeKeyValues(b, [t]);
  expect(r.next).toBe(b.length);
  return r.values[0] as Value;
}

/** What a key gives back: keys do not keep -0 apart from +0 (equal keys, as in TiDB). */
function keyForm(v: Value): Value {
  return typeof v === 'number' && v === 0 ? 0 : v;
}

describe('worked examples (frozen on-disk format)', () => {
  test.each<[string, Value, ColumnType, string]>([
    ['NULL', null, INT, '00'],
    ['int 0', 0n, INT, '038000000000000000'],
    ['int 1', 1n, INT, '038000000000000001'],
    ['int -1', -1n, INT, '037fffffffffffffff'],
    ['int min', -(1n << 63n), INT, '030000000000000000'],
    ['int max', (1n << 63n) - 1n, INT, '03ffffffffffffffff'],
    ['uint 258', 258n, UINT, '040000000000000102'],
    ['uint max', (1n << 64n) - 1n, UINT, '04ffffffffffffffff'],
    ['double 1', 1, DOUBLE, '05bff0000000000000'],
    ['double -1', -1, DOUBLE, '05400fffffffffffff'],
    ['double 0', 0, DOUBLE, '058000000000000000'],
    ['double -0', -0, DOUBLE, '058000000000000000'],
    ['double +inf', Infinity, DOUBLE, '05fff0000000000000'],
    ['double -inf', -Infinity, DOUBLE, '05000fffffffffffff'],
    ['float 1.5', 1.5, makeType('float'), '05bff8000000000000'],
    ['decimal(14,4) 1234567890.1234', new Decimal('1234567890.1234'), makeType('decimal', { length: 14, scale: 4 }), '060e04810dfb38d204d2'],
    ['decimal(14,4) -1234567890.1234', new Decimal('-1234567890.1234'), makeType('decimal', { length: 14, scale: 4 }), '060e047ef204c72dfb2d'],
    ['decimal(5,2) 12.30', new Decimal('12.3'), makeType('decimal', { length: 5, scale: 2 }), '060502800c1e'],
    ['decimal(5,2) 0', new Decimal(0), makeType('decimal', { length: 5, scale: 2 }), '0605028000' + '00'],
    ['varchar empty', '', VARCHAR, '010000000000000000f7'],
    ['varchar ab', 'ab', VARCHAR, '016162000000000000f9'],
    ['varchar 8 chars', 'abcdefgh', VARCHAR, '016162636465666768ff0000000000000000f7'],
    ['varchar é', 'é', VARCHAR, '01c3a9000000000000f9'],
    ['blob 010203', new Uint8Array([1, 2, 3]), BLOB, '01010203' + '0000000000fa'],
    ['date 2024-01-15', new DateTime('date', 2024, 1, 15), makeType('date'), '0401' + '8819ead3800000'],
    ['datetime 2024-01-15 10:20:30.5', new DateTime('datetime', 2024, 1, 15, 10, 20, 30, 500000, 1), makeType('datetime', { scale: 1 }), '04018819f4ab04a4a0'],
    ['time -00:00:01', new Duration(-1_000_000n), makeType('time'), '077ffffffffff0bdc0'],
    ['time 00:00:00', new Duration(0n), makeType('time'), '078000000000000000'],
  ])('%s', (_name, v, t, hex) => {
    expect(toHex(enc1(v, t))).toBe(hex);
    expect(norm(dec1(fromHex(hex), t))).toEqual(norm(keyForm(v)));
  });

  it('encodes a tuple as the concatenation of its columns', () => {
    expect(toHex(encodeKeyValues([1n, 'ab', null], [INT, VARCHAR, INT]))).toBe('038000000000000001' + '016162000000000000f9' + '00');
  });
});

describe('round trip', () => {
  it('integers of every kind at their bounds', () => {
    for (const kind of INT_KINDS) {
      for (const unsigned of [false, true]) {
        const t = intType(kind, unsigned);
        fc.assert(fc.property(intValue(t), (v) => dec1(enc1(v, t), t) === v));
      }
    }
  });

  it('every type, NULL included', () => {
    fc.assert(
      fc.property(
        typedArb.chain((ta) => fc.tuple(fc.constant(ta), fc.option(ta.value, { freq: 8 }))),
        ([ta, v]) => {
          expect(norm(dec1(enc1(v, ta.type), ta.type))).toEqual(norm(keyForm(v)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('multi-column tuples, decoding from an offset', () => {
    fc.assert(
      fc.property(
        fc.array(typedArb, { minLength: 1, maxLength: 6 }).chain((tas) => fc.tuple(fc.constant(tas), fc.tuple(...tas.map((ta) => fc.option(ta.value))))),
        fc.uint8Array({ maxLength: 5 }),
        ([tas, vals], prefix) => {
          const types = tas.map((ta) => ta.type);
          const body = encodeKeyValues(vals, types);
          const buf = new Uint8Array(prefix.length + body.length + 1);
          buf.set(prefix);
          buf.set(body, prefix.length);
          const r = decodeKeyValues(buf, types, prefix.length);
          expect(r.next).toBe(prefix.length + body.length);
          expect(r.values.map(norm)).toEqual(vals.map((v) => norm(keyForm(v))));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rejects a value of the wrong JS type and NaN', () => {
    expect(() => enc1(1, INT)).toThrow(/expects bigint/);
    expect(() => enc1('x', BLOB)).toThrow(/expects Uint8Array/);
    expect(() => enc1(NaN, DOUBLE)).toThrow(/NaN/);
    expect(() => enc1(1n << 63n, INT)).toThrow(RangeError);
    expect(() => enc1(-1n, UINT)).toThrow(RangeError);
  });

  it('rejects truncated or mistyped keys', () => {
    expect(() => decodeKeyValues(fromHex('0380'), [INT])).toThrow(/corrupt/);
    expect(() => decodeKeyValues(fromHex('016162'), [VARCHAR])).toThrow(/corrupt/);
    expect(() => decodeKeyValues(enc1('a', VARCHAR), [INT])).toThrow(/corrupt/);
    expect(() => decodeKeyValues(new Uint8Array(0), [INT])).toThrow(/corrupt/);
  });
});

describe('sort order', () => {
  const pairOf = (ta: TypedArb): fc.Arbitrary<[TypedArb, Value, Value]> => fc.tuple(fc.constant(ta), ta.value, ta.value);

  it('byte order of encodings equals the natural order of values, per type', () => {
    fc.assert(
      fc.property(typedArb.chain(pairOf), ([ta, a, b]) => {
        const got = sign(compareBytes(enc1(a, ta.type), enc1(b, ta.type)));
        expect(got).toBe(sign(naturalCompare(a, b)));
      }),
      { numRuns: 3000 },
    );
  });

  it('integers: signed and unsigned at the extremes', () => {
    for (const t of [INT, UINT, makeType('tinyint'), makeType('int', { unsigned: true })]) {
      fc.assert(
        fc.property(intValue(t), intValue(t), (a, b) => {
          expect(sign(compareBytes(enc1(a, t), enc1(b, t)))).toBe(sign(naturalCompare(a, b)));
        }),
      );
    }
  });

  it('doubles including ±0, ±Infinity, subnormals', () => {
    const special = fc.constantFrom(0, -0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE);
    const d = fc.oneof(special, fc.double({ noNaN: true }));
    fc.assert(
      fc.property(d, d, (a, b) => {
        expect(sign(compareBytes(enc1(a, DOUBLE), enc1(b, DOUBLE)))).toBe(sign(naturalCompare(a, b)));
      }),
    );
  });

  it('NULL sorts before every non-NULL value', () => {
    fc.assert(
      fc.property(typedArb.chain((ta) => fc.tuple(fc.constant(ta), ta.value)), ([ta, v]) => {
        expect(compareBytes(enc1(null, ta.type), enc1(v, ta.type))).toBeLessThan(0);
      }),
    );
  });

  it('multi-column keys order lexicographically (NULL first in each column)', () => {
    const tupleArb = fc.array(typedArb, { minLength: 1, maxLength: 4 }).chain((tas) => {
      const row = fc.tuple(...tas.map((ta) => fc.option(ta.value, { freq: 4 })));
      return fc.tuple(fc.constant(tas.map((ta) => ta.type)), row, row);
    });
    fc.assert(
      fc.property(tupleArb, ([types, a, b]) => {
        let want = 0;
        for (let i = 0; i < types.length && want === 0; i++) {
          const x = a[i] as Value;
          const y = b[i] as Value;
          want = x === null ? (y === null ? 0 : -1) : y === null ? 1 : sign(naturalCompare(x, y));
        }
        expect(sign(compareBytes(encodeKeyValues(a, types), encodeKeyValues(b, types)))).toBe(want);
      }),
      { numRuns: 1000 },
    );
  });

  it('a tuple prefix sorts before its extensions', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -10n, max: 10n }), fc.string(), (i, s) => {
        const short = encodeKeyValues([i], [INT, VARCHAR]);
        const long = encodeKeyValues([i, s], [INT, VARCHAR]);
        expect(compareBytes(short, long)).toBeLessThan(0);
        expect(toHex(long).startsWith(toHex(short))).toBe(true);
      }),
    );
  });
});
