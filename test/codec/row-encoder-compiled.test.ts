import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRowEncoder, decodeRow, encodeRow } from '../../src/codec/index.js';
import type { ColumnType, Value } from '../../src/types/index.js';
import { makeType } from '../../src/types/index.js';
import { toHex } from '../../src/util/index.js';
import { typedArb, type TypedArb } from './arbitraries.js';

const INT = makeType('int');
const CHAR = makeType('char', { length: 120 });

interface Col {
  readonly id: number;
  readonly type: ColumnType;
  readonly value: Value;
}

const colsArb = (maxId: number): fc.Arbitrary<Col[]> =>
  fc.uniqueArray(fc.integer({ min: 0, max: maxId }), { maxLength: 12 }).chain((ids) =>
    fc.tuple(...ids.map((id) => typedArb.chain((ta: TypedArb) => fc.option(ta.value, { freq: 4 }).map((value) => ({ id, type: ta.type, value }))))),
  );

/** The compiled encoder must give encodeRow's bytes exactly (encodeRow is the reference). */
function same(cols: readonly Col[]): void {
  const ids = cols.map((c) => c.id);
  const types = cols.map((c) => c.type);
  const values = cols.map((c) => c.value);
  const expected = toHex(encodeRow(ids, values, types));
  expect(toHex(compileRowEncoder(ids, types)(values))).toBe(expected);
  // Reading through offsets: the values sit at other positions of a wider row.
  const offsets = cols.map((_, i) => cols.length - i);
  const row: Value[] = [null, ...values.slice().reverse()];
  expect(toHex(compileRowEncoder(ids, types, offsets)(row))).toBe(expected);
}

describe('compiled row encoder', () => {
  it('matches encodeRow on small ids', () => {
    fc.assert(fc.property(colsArb(255), same), { numRuns: 1000 });
  });

  it('matches encodeRow on big ids', () => {
    fc.assert(fc.property(colsArb(0xffffffff), same), { numRuns: 300 });
  });

  it('matches encodeRow on long strings (ASCII, multi-byte, escaped bytes) and big value areas', () => {
    const strings = ['x'.repeat(33), '0123456789-'.repeat(11), 'é'.repeat(40), `${'a'.repeat(40)}\udc80${'b'.repeat(5)}`, `${'a'.repeat(40)}😀`];
    for (const s of strings) same([{ id: 2, type: CHAR, value: s }, { id: 1, type: INT, value: 7n }, { id: 3, type: CHAR, value: null }]);
    const blob = makeType('blob', { lob: 'medium' });
    same([{ id: 1, type: blob, value: new Uint8Array(70_000).fill(3) }, { id: 2, type: INT, value: 1n }]);
  });

  it('round trips through decodeRow', () => {
    const enc = compileRowEncoder([3, 1], [CHAR, INT]);
    const row = enc(['abc', 5n]);
    expect(decodeRow(row, [{ id: 1, type: INT }, { id: 3, type: CHAR }])).toEqual([5n, 'abc']);
  });

  it('rejects bad input', () => {
    expect(() => compileRowEncoder([1, 1], [INT, INT])).toThrow(/duplicate/);
    expect(() => compileRowEncoder([1], [])).toThrow();
    expect(() => compileRowEncoder([1], [INT])(['x'])).toThrow(/expects bigint/);
    expect(() => compileRowEncoder([1], [INT], [4])([1n])).toThrow(/no value at offset 4/);
  });
});
