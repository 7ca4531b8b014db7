import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { ByteWriter } from '../../src/codec/byte-writer.js';
import { decimalBinSize, readDecimalBin, writeDecimalBin } from '../../src/codec/decimal-bin.js';
import { Decimal } from '../../src/types/index.js';
import { compareBytes, fromHex, toHex } from '../../src/util/index.js';
import { decimalTypeArb, decimalValue, sign } from './arbitraries.js';

function bin(d: Decimal, m: number, f: number): Uint8Array {
  const w = new ByteWriter(4);
  writeDecimalBin(w, d, m, f);
  return w.finish();
}

describe('MySQL binary decimal', () => {
  test.each<[string, number, number, string]>([
    ['1234567890.1234', 14, 4, '810dfb38d204d2'],
    ['-1234567890.1234', 14, 4, '7ef204c72dfb2d'],
    ['0', 1, 0, '80'],
    ['9', 1, 0, '89'],
    ['-9', 1, 0, '76'],
    ['0.5', 1, 1, '85'],
    ['12.3', 5, 2, '800c1e'],
    ['123456789', 9, 0, '875bcd15'],
    ['-0.000000001', 10, 9, '7ffffffffe'],
    ['99999999999999999999999999999999999.999999999999999999999999999999', 65, 30, '85f5e0ff' + '3b9ac9ff'.repeat(6) + '03e7'],
  ])('%s as DECIMAL(%i,%i)', (text, m, f, hex) => {
    const b = bin(new Decimal(text), m, f);
    expect(b.length).toBe(decimalBinSize(m, f));
    if (hex !== '') expect(toHex(b)).toBe(hex);
    const r = readDecimalBin(b, 0, m, f);
    expect(r.value.eq(new Decimal(text))).toBe(true);
    expect(r.next).toBe(b.length);
    if (hex !== '') expect(readDecimalBin(fromHex(hex), 0, m, f).value.toString()).toBe(new Decimal(text).toString());
  });

  it('sizes follow MySQL (dig2bytes)', () => {
    expect(decimalBinSize(10, 0)).toBe(5);
    expect(decimalBinSize(14, 4)).toBe(7);
    expect(decimalBinSize(65, 30)).toBe(30);
    expect(decimalBinSize(18, 9)).toBe(8);
  });

  it('negative values that round to zero encode as +0', () => {
    expect(toHex(bin(new Decimal('-0.001'), 5, 2))).toBe(toHex(bin(new Decimal(0), 5, 2)));
  });

  it('rejects values that do not fit', () => {
    expect(() => bin(new Decimal('1000'), 5, 2)).toThrow(RangeError);
  });

  it('round trips and orders like the numbers for a fixed (M,D)', () => {
    fc.assert(
      fc.property(
        decimalTypeArb.chain((t) => fc.tuple(fc.constant(t), decimalValue(t), decimalValue(t))),
        ([t, a, b]) => {
          const ea = bin(a, t.length, t.scale);
          const eb = bin(b, t.length, t.scale);
          expect(readDecimalBin(ea, 0, t.length, t.scale).value.eq(a)).toBe(true);
          expect(sign(compareBytes(ea, eb))).toBe(sign(a.cmp(b)));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
