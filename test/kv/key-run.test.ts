import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertRunShape, runKey, runLength, runMutations, type KeyRun } from '../../src/kv/key-run.js';
import { compareBytes, radixOrder } from '../../src/util/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Distinct records of `width` bytes back to back (narrow ones, and wide ones that writeRunKey copies with set()). */
const arenaArb = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 32, max: 40 })).chain((width) =>
  fc.uniqueArray(fc.uint8Array({ minLength: width, maxLength: width }), { maxLength: 40, selector: hex }).map((recs) => {
    const records = new Uint8Array(recs.length * width);
    recs.forEach((r, i) => records.set(r, i * width));
    return { width, records, count: recs.length, recs };
  }),
);

describe('key runs', () => {
  it('builds the worked example of the file comment', () => {
    const run: KeyRun = {
      prefix: Uint8Array.from([0x74, 0x01]),
      records: Uint8Array.from([5, 0, 3, 0, 4, 0]),
      width: 2,
      order: Uint32Array.from([1, 2, 0]),
      from: 0,
      to: 3,
      value: Uint8Array.from([9]),
    };
    assertRunShape(run);
    expect(runLength(run)).toBe(3);
    expect(runMutations(run).map((m) => hex(m.key))).toEqual(['74010300', '74010400', '74010500']);
    expect(runMutations(run).every((m) => m.op === 'put' && hex(m.value) === '09')).toBe(true);
    expect(hex(runKey({ ...run, from: 1, to: 2 }, 1))).toBe('74010400');
    // The same records as a one-byte key part and a one-byte value of their own.
    const own: KeyRun = { ...run, width: 1, valueWidth: 1, value: new Uint8Array(0) };
    assertRunShape(own);
    expect(runMutations(own).map((m) => `${hex(m.key)}=${m.op === 'put' ? hex(m.value) : ''}`)).toEqual(['740103=00', '740104=00', '740105=00']);
  });

  it('gives each key the value part of its own record when valueWidth is set (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((vw) => fc.tuple(fc.constant(vw), fc.uniqueArray(fc.uint8Array({ minLength: 2 + vw, maxLength: 2 + vw }), { maxLength: 30, selector: (r) => hex(r.subarray(0, 2)) }))),
        ([valueWidth, recs]) => {
          const stride = 2 + valueWidth;
          const records = new Uint8Array(recs.length * stride);
          recs.forEach((r, i) => records.set(r, i * stride));
          const run: KeyRun = { prefix: Uint8Array.from([7]), records, width: 2, valueWidth, order: radixOrder(records, stride, recs.length), from: 0, to: recs.length, value: new Uint8Array(0) };
          assertRunShape(run);
          const expected = recs.map((r) => `07${hex(r.subarray(0, 2))}=${hex(r.subarray(2))}`).sort();
          expect(runMutations(run).map((m) => `${hex(m.key)}=${m.op === 'put' ? hex(m.value) : ''}`)).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('puts the prefix before each record in radix order: the keys of the plain mutations, ascending (property)', () => {
    fc.assert(
      fc.property(arenaArb, fc.uint8Array({ maxLength: 4 }), fc.nat(), fc.nat(), ({ width, records, count, recs }, prefix, a, b) => {
        const order = radixOrder(records, width, count);
        const from = count === 0 ? 0 : a % (count + 1);
        const to = from + (count === 0 ? 0 : b % (count - from + 1));
        const run: KeyRun = { prefix, records, width, order, from, to, value: new Uint8Array(0) };
        assertRunShape(run);
        const expected = recs.map((r) => hex(Buffer.concat([prefix, r]))).sort().slice(from, to);
        expect(runMutations(run).map((m) => hex(m.key))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a run whose keys are not strictly ascending, or whose bounds or records lie outside it', () => {
    const base: KeyRun = { prefix: new Uint8Array(0), records: Uint8Array.from([1, 2, 2]), width: 1, order: Uint32Array.from([0, 1, 2]), from: 0, to: 2, value: new Uint8Array(0) };
    expect(() => assertRunShape(base)).not.toThrow();
    expect(() => assertRunShape({ ...base, to: 3 })).toThrow(/not above/); // 2, 2
    expect(() => assertRunShape({ ...base, order: Uint32Array.from([1, 0, 2]) })).toThrow(/not above/);
    expect(() => assertRunShape({ ...base, to: 4 })).toThrow(/bounds/);
    expect(() => assertRunShape({ ...base, from: 2, to: 1 })).toThrow(/bounds/);
    expect(() => assertRunShape({ ...base, width: 0 })).toThrow(/bounds/);
    expect(() => assertRunShape({ ...base, order: Uint32Array.from([0, 7, 2]) })).toThrow(/outside/);
    // Only the key part counts: records 01|09 and 01|02 have equal keys whatever their values.
    expect(() => assertRunShape({ ...base, records: Uint8Array.from([1, 9, 1, 2]), width: 1, valueWidth: 1, order: Uint32Array.from([1, 0]), to: 2 })).toThrow(/not above/);
    expect(() => assertRunShape({ ...base, records: Uint8Array.from([1, 9, 2, 2]), width: 1, valueWidth: 1, order: Uint32Array.from([0, 1]), to: 2 })).not.toThrow();
  });

  it('cuts each key part to its length when the run has lengths (key parts padded to the width)', () => {
    const records = Uint8Array.from([5, 1, 0, 7, 2, 9, 6, 3, 0]);
    const run: KeyRun = { prefix: Uint8Array.from([1]), records, width: 3, lengths: Uint16Array.from([2, 3, 2]), order: radixOrder(records, 3, 3), from: 0, to: 3, value: Uint8Array.from([4]) };
    assertRunShape(run);
    expect(runMutations(run).map((m) => hex(m.key))).toEqual(['010501', '010603', '01070209']);
    expect(() => assertRunShape({ ...run, lengths: Uint16Array.from([2, 4, 2]) })).toThrow(/key part of 4 bytes/);
    expect(() => assertRunShape({ ...run, lengths: Uint16Array.from([2, 3]) })).toThrow(/outside/);
    // 05 01 before 05 01 00 (a proper prefix first), so the reverse is out of order.
    const prefixed: KeyRun = { ...run, records: Uint8Array.from([5, 1, 0, 5, 1, 0]), lengths: Uint16Array.from([3, 2]), order: Uint32Array.from([0, 1]), to: 2 };
    expect(() => assertRunShape(prefixed)).toThrow(/not above/);
    expect(() => assertRunShape({ ...prefixed, order: Uint32Array.from([1, 0]) })).not.toThrow();
  });

  it('keeps every key inside its records: distinct records give distinct, ordered keys', () => {
    const records = Uint8Array.from([0xff, 0x00, 0x00, 0xff]);
    const run: KeyRun = { prefix: Uint8Array.from([1]), records, width: 2, order: radixOrder(records, 2, 2), from: 0, to: 2, value: new Uint8Array(0) };
    const keys = runMutations(run).map((m) => m.key);
    expect(keys.map(hex)).toEqual(['0100ff', '01ff00']);
    expect(compareBytes(keys[0] as Uint8Array, keys[1] as Uint8Array)).toBeLessThan(0);
  });
});
