import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntryArena, hasEqualKeys } from '../../src/catalog/entry-arena.js';
import { encodeKeyValues } from '../../src/codec/index.js';
import { makeType } from '../../src/types/index.js';
import { compareBytes, radixOrder } from '../../src/util/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const PREFIX = Uint8Array.from([0x74, 0x69]);
/** An entry part: the key's part after the prefix, then its value (if any). */
const entry = (part: number[], value: number[] = []): Uint8Array => Uint8Array.from([...part, ...value]);
const rows = { max: 1000, expected: 4 };

/** The key parts of `arena`'s padded records in radix order, each cut to its length. */
function sortedParts(arena: EntryArena): string[] {
  const e = arena.padded();
  if (e === undefined) throw new Error('over the limit');
  const stride = e.width + e.valueWidth;
  return [...radixOrder(e.records, stride, e.count)].map((r) => hex(e.records.subarray(r * stride, r * stride + (e.lengths?.[r] ?? e.width))));
}

describe('the sorted build\'s entry arena', () => {
  it('pads the worked example of the file comment to the longest key part', () => {
    const arena = new EntryArena(PREFIX, rows);
    for (const part of [[5, 1], [7, 2, 9], [6, 3]]) expect(arena.append(entry(part), 0)).toBe(true);
    const e = arena.padded();
    expect(e && hex(e.records.subarray(0, 9))).toBe('050100070209060300');
    expect(e && [...(e.lengths ?? [])]).toEqual([2, 3, 2]);
    expect(sortedParts(arena)).toEqual(['0501', '0603', '070209']);
  });

  it('keeps records of one length as they were read, and a value beside each key part', () => {
    const arena = new EntryArena(PREFIX, rows);
    arena.append(entry([9, 9], [1]), 1);
    arena.append(entry([1, 1], [2]), 1);
    const e = arena.padded();
    expect(e?.lengths).toBeUndefined();
    expect(e && hex(e.records.subarray(0, 6))).toBe('090901010102');
    expect(arena.append(entry([3, 3], [1, 2]), 2)).toBe(false); // a value of another length
  });

  it('orders padded index keys of strings and handles as the keys themselves order (property)', () => {
    const type = makeType('varchar', { length: 40 });
    const int = makeType('bigint', {});
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.option(fc.string({ maxLength: 20 }), { nil: null }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), { maxLength: 60 }), (values) => {
        const arena = new EntryArena(PREFIX, rows);
        const parts = values.map(([s, h]) => encodeKeyValues([s, h], [type, int]));
        for (const p of parts) arena.append(p, 0);
        const expected = parts.sort(compareBytes).map(hex);
        expect(sortedParts(arena)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('finds two records with one key part next to each other, whatever their values', () => {
    const arena = new EntryArena(PREFIX, rows);
    for (const [part, v] of [[[1, 2], 1], [[1], 2], [[1, 2], 3]] as const) arena.append(entry([...part], [v]), 1);
    const e = arena.padded();
    if (e === undefined) throw new Error('unreachable');
    const stride = e.width + e.valueWidth;
    expect(hasEqualKeys(e, radixOrder(e.records, stride, e.count))).toBe(true);
    const distinct = new EntryArena(PREFIX, rows);
    for (const [part, v] of [[[1, 2], 1], [[1], 1], [[1, 3], 1]] as const) distinct.append(entry([...part], [v]), 1);
    const d = distinct.padded();
    if (d === undefined) throw new Error('unreachable');
    expect(hasEqualKeys(d, radixOrder(d.records, d.width + d.valueWidth, d.count))).toBe(false); // 01 and 01 02 differ
  });

  it('refuses rows past its limit', () => {
    const arena = new EntryArena(PREFIX, { max: 2, expected: 2 });
    expect(arena.append(entry([1]), 0)).toBe(true);
    expect(arena.append(entry([2]), 0)).toBe(true);
    expect(arena.append(entry([3]), 0)).toBe(false);
  });
});
