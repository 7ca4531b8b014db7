import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { decodeRow, decodeRowInto, encodeRow } from '../../src/codec/index.js';
import type { ColumnType, Value } from '../../src/types/index.js';
import { DateTime, Decimal, Duration, makeType } from '../../src/types/index.js';
import { fromHex, toHex } from '../../src/util/index.js';
import { norm, typedArb, type TypedArb } from './arbitraries.js';

const INT = makeType('int');
const UINT = makeType('int', { unsigned: true });
const BIGINT = makeType('bigint');
const UBIGINT = makeType('bigint', { unsigned: true });
const VARCHAR = makeType('varchar', { length: 20 });
const BLOB = makeType('blob', { lob: 'medium' });

interface Col {
  readonly id: number;
  readonly type: ColumnType;
}

/** Stored: the column is in the row (value or NULL). Missing: only asked for when decoding. */
interface Case {
  readonly stored: Array<Col & { readonly value: Value }>;
  readonly missing: Col[];
}

function caseArb(maxId: number): fc.Arbitrary<Case> {
  return fc.uniqueArray(fc.integer({ min: 0, max: maxId }), { maxLength: 12 }).chain((ids) =>
    fc
      .tuple(...ids.map(() => typedArb.chain((ta: TypedArb) => fc.tuple(fc.constant(ta.type), fc.option(ta.value, { freq: 4 }), fc.boolean()))))
      .map((cols) => {
        const stored: Case['stored'] = [];
        const missing: Col[] = [];
        cols.forEach(([type, value, keep], i) => {
          const id = ids[i] as number;
          if (keep || i === 0) stored.push({ id, type, value });
          else missing.push({ id, type });
        });
        return { stored, missing };
      }),
  );
}

function roundTrip(c: Case): void {
  const row = encodeRow(
    c.stored.map((s) => s.id),
    c.stored.map((s) => s.value),
    c.stored.map((s) => s.type),
  );
  expect(row.length).toBeGreaterThan(0);
  const ask = fc.sample(fc.shuffledSubarray([...c.stored, ...c.missing], { minLength: c.stored.length + c.missing.length }), 1)[0] as Col[];
  const got = decodeRow(row, ask);
  const byId = new Map(c.stored.map((s) => [s.id, s.value]));
  expect(got.map(norm)).toEqual(ask.map((col) => norm(byId.has(col.id) ? byId.get(col.id) : undefined)));
  // decodeRowInto (the scan fast path), reading the row at an offset inside a larger buffer
  // (as a store's reused read buffer holds it): same values into reversed slots, absent ones
  // untouched.
  const pad = 1 + (row.length % 5);
  const big = new Uint8Array(pad + row.length + 7).fill(0xa5);
  big.set(row, pad);
  const into: Value[] = ask.map(() => 'untouched');
  const absent = decodeRowInto(big, pad, pad + row.length, ask, into, ask.map((_, i) => ask.length - 1 - i));
  expect(absent).toBe(got.filter((v) => v === undefined).length);
  expect([...into].reverse().map(norm)).toEqual(got.map((v) => norm(v === undefined ? 'untouched' : v)));
}

describe('worked examples (frozen on-disk format)', () => {
  test.each<[string, number[], Value[], ColumnType[], string]>([
    ['empty row', [], [], [], '800000000000'],
    ['int 1, varchar ab, NULL', [1, 2, 3], [1n, 'ab', null], [INT, VARCHAR, INT], '80000200010001020301000300016162'],
    ['unsorted input', [3, 1, 2], [null, 1n, 'ab'], [INT, INT, VARCHAR], '80000200010001020301000300016162'],
    ['int widths', [1, 2, 3, 4], [-1n, 300n, -70000n, 1n << 40n], [BIGINT, BIGINT, BIGINT, BIGINT], '800004000000010203040100030007000f00' + 'ff' + '2c01' + '90eefeff' + '0000000000010000'],
    ['unsigned widths', [1, 2], [255n, (1n << 64n) - 1n], [UBIGINT, UBIGINT], '80000200000001020100' + '0900' + 'ff' + 'ffffffffffffffff'],
    ['double 1.5', [1], [1.5], [makeType('double')], '80000100000001' + '0800' + '000000000000f83f'],
    ['decimal(5,2) 12.30', [1], [new Decimal('12.3')], [makeType('decimal', { length: 5, scale: 2 })], '800001000000010500' + '0502800c1e'],
    ['date 2024-01-15', [1], [new DateTime('date', 2024, 1, 15)], [makeType('date')], '80000100000001' + '0800' + '000080d3ea198801'],
    ['time -1s', [1], [new Duration(-1_000_000n)], [makeType('time')], '80000100000001' + '0800' + 'c0bdf0ffffffffff'],
    ['big: column id 256', [256], [7n], [INT], '8001010000000001000001000000' + '07'],
  ])('%s', (_name, ids, values, types, hex) => {
    const row = encodeRow(ids, values, types);
    expect(toHex(row)).toBe(hex);
    const cols = ids.map((id, i) => ({ id, type: types[i] as ColumnType }));
    expect(decodeRow(fromHex(hex), cols).map(norm)).toEqual(values.map(norm));
  });
});

describe('row format v2', () => {
  it('round trips small rows (ids <= 255) with NULLs and missing ids', () => {
    fc.assert(fc.property(caseArb(255), roundTrip), { numRuns: 1000 });
  });

  it('round trips big rows (ids up to 2^32 - 1)', () => {
    fc.assert(fc.property(caseArb(0xffffffff), roundTrip), { numRuns: 500 });
  });

  it('keeps -0 and every double bit-exact', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (d) => {
        const got = decodeRow(encodeRow([1], [d], [makeType('double')]), [{ id: 1, type: makeType('double') }]);
        expect(Object.is(got[0], d)).toBe(true);
      }),
    );
  });

  it('switches to the big layout when the values exceed 64 KiB', () => {
    const blob = new Uint8Array(70_000).map((_, i) => i & 0xff);
    const row = encodeRow([1, 2, 3], [5n, blob, 'tail'], [INT, BLOB, VARCHAR]);
    expect(row[1]).toBe(1);
    const got = decodeRow(row, [
      { id: 3, type: VARCHAR },
      { id: 2, type: BLOB },
      { id: 1, type: INT },
    ]);
    expect(got[0]).toBe('tail');
    expect(toHex(got[1] as Uint8Array)).toBe(toHex(blob));
    expect(got[2]).toBe(5n);
    const small = encodeRow([1, 2], [5n, new Uint8Array(65_000)], [INT, BLOB]);
    expect(small[1]).toBe(0);
  });

  it('integers use the fewest bytes and keep signedness', () => {
    const cases: Array<[bigint, ColumnType, number]> = [
      [127n, INT, 1],
      [-128n, INT, 1],
      [128n, INT, 2],
      [-32769n, INT, 4],
      [2147483648n, BIGINT, 8],
      [-(1n << 63n), BIGINT, 8],
      [255n, UINT, 1],
      [256n, UINT, 2],
      [65536n, UINT, 4],
      [4294967295n, UINT, 4],
      [4294967296n, UBIGINT, 8],
    ];
    for (const [v, t, width] of cases) {
      const row = encodeRow([1], [v], [t]);
      expect(row.length - 9).toBe(width);
      expect(decodeRow(row, [{ id: 1, type: t }])[0]).toBe(v);
    }
  });

  it('a decoded blob does not alias the row buffer', () => {
    const row = encodeRow([1], [new Uint8Array([1, 2, 3])], [BLOB]);
    const got = decodeRow(row, [{ id: 1, type: BLOB }])[0] as Uint8Array;
    row.fill(0);
    expect([...got]).toEqual([1, 2, 3]);
  });

  it('rejects bad input', () => {
    expect(() => encodeRow([1, 1], [1n, 2n], [INT, INT])).toThrow(/duplicate/);
    expect(() => encodeRow([-1], [1n], [INT])).toThrow(RangeError);
    expect(() => encodeRow([1], [1n], [])).toThrow();
    expect(() => encodeRow([1], ['x'], [INT])).toThrow(/expects bigint/);
    expect(() => decodeRow(new Uint8Array(0), [])).toThrow(/corrupt/);
    expect(() => decodeRow(fromHex('7f0000000000'), [])).toThrow(/corrupt/);
    expect(() => decodeRow(fromHex('80000100000001050000'), [{ id: 1, type: INT }])).toThrow(/corrupt/);
  });

  it('checks a row read at an offset against its own end, not the buffer\'s', () => {
    const row = encodeRow([1, 2], [7n, 'abcdef'], [INT, VARCHAR]);
    const big = new Uint8Array(row.length + 20).fill(0x41);
    big.set(row, 4);
    const out: Value[] = [null, null];
    expect(decodeRowInto(big, 4, 4 + row.length, [{ id: 1, type: INT }, { id: 2, type: VARCHAR }], out, [0, 1])).toBe(0);
    expect(out).toEqual([7n, 'abcdef']);
    // One byte short: the bytes after it in the buffer must not be read as the row's.
    expect(() => decodeRowInto(big, 4, 3 + row.length, [{ id: 2, type: VARCHAR }], out, [0])).toThrow(/corrupt/);
    // A decimal whose column is shorter than its precision needs.
    const dec = makeType('decimal', { length: 10, scale: 2 });
    const drow = encodeRow([1], [new Decimal('12345678.9')], [dec]);
    const cut = drow.slice();
    expect(Array.from(cut.subarray(0, 7))).toEqual([0x80, 0, 1, 0, 0, 0, 1]); // header, then id 1
    cut[7] = (cut[7] as number) - 2; // its end offset (u16 LE at 7): the value now ends 2 bytes early
    const dbig = new Uint8Array(cut.length + 8).fill(0);
    dbig.set(cut, 0);
    expect(() => decodeRowInto(dbig, 0, cut.length, [{ id: 1, type: dec }], out, [0])).toThrow(/corrupt/);
  });
});
