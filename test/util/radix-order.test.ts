import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes, radixOrder } from '../../src/util/index.js';

/** The order a stable comparison sort gives records of `width` bytes. */
function sortedIndices(bytes: Uint8Array, width: number, count: number): number[] {
  const rec = (i: number): Uint8Array => bytes.subarray(i * width, (i + 1) * width);
  return Array.from({ length: count }, (_, i) => i).sort((x, y) => compareBytes(rec(x), rec(y)) || x - y);
}

describe('radixOrder', () => {
  it('orders the worked example', () => {
    expect([...radixOrder(Uint8Array.from([1, 2, 0, 0xff, 1, 1]), 2, 3)]).toEqual([1, 2, 0]);
  });

  it('orders the most-significant-first example of the file comment, and wide records alike', () => {
    const wide = (rec: number[]): number[] => [...rec, ...new Array<number>(30).fill(0)];
    expect([...radixOrder(Uint8Array.from([...wide([1, 5, 9]), ...wide([0, 7, 7]), ...wide([1, 5, 1])]), 33, 3)]).toEqual([1, 2, 0]);
  });

  it('equals a stable byte-wise sort, ties in input order, for any width and bytes (both sorts)', () => {
    const records = fc.integer({ min: 1, max: 48 }).chain((width) =>
      fc.tuple(
        fc.constant(width),
        // few distinct byte values, so equal records and shared positions (skipped passes) are common
        fc.array(fc.uint8Array({ minLength: width, maxLength: width, min: 0, max: 3 }), { maxLength: 400 }),
      ),
    );
    fc.assert(
      fc.property(records, ([width, recs]) => {
        const bytes = new Uint8Array(width * recs.length + 5); // spare bytes past the records are ignored
        recs.forEach((r, i) => bytes.set(r, i * width));
        expect([...radixOrder(bytes, width, recs.length)]).toEqual(sortedIndices(bytes, width, recs.length));
      }),
    );
  });

  it.each([16, 40])('sorts 100k random %i-byte keys like compareBytes does', (width) => {
    const count = 100_000;
    const bytes = new Uint8Array(width * count);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    const order = radixOrder(bytes, width, count);
    for (let i = 1; i < count; i++) {
      const a = bytes.subarray((order[i - 1] as number) * width, ((order[i - 1] as number) + 1) * width);
      const b = bytes.subarray((order[i] as number) * width, ((order[i] as number) + 1) * width);
      expect(compareBytes(a, b) <= 0).toBe(true);
    }
    expect(new Set(order).size).toBe(count);
  });

  it('skips the leading positions wide records all share, and equal records keep their order', () => {
    const width = 30;
    const count = 300;
    const bytes = new Uint8Array(width * count);
    for (let i = 0; i < count; i++) {
      bytes.fill(7, i * width, i * width + 20); // 20 shared bytes
      for (let b = 20; b < width; b++) bytes[i * width + b] = ((i * 37 + b * 11) % 5) * (i % 3 === 0 ? 0 : 1); // many equal records
    }
    expect([...radixOrder(bytes, width, count)]).toEqual(sortedIndices(bytes, width, count));
  });

  it('refuses a byte array shorter than its records', () => {
    expect(() => radixOrder(new Uint8Array(3), 2, 2)).toThrow(RangeError);
  });
});
