import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packDateTime, unpackDateTime } from '../../src/codec/packed-datetime.js';
import { DateTime } from '../../src/types/index.js';
import { dateValue, datetimeValue, norm } from './arbitraries.js';

function toBig([hi, lo]: [number, number]): bigint {
  return (BigInt(hi) << 32n) | BigInt(lo);
}

describe('packed DateTime without BigInt', () => {
  it('equals DateTime.toPacked()', () => {
    fc.assert(
      fc.property(fc.oneof(dateValue(), fc.integer({ min: 0, max: 6 }).chain(datetimeValue)), (dt) => {
        expect(toBig(packDateTime(dt))).toBe(dt.toPacked());
      }),
      { numRuns: 5000 },
    );
  });

  it('unpacks like DateTime.fromPacked()', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }).chain(datetimeValue), (dt) => {
        const [hi, lo] = packDateTime(dt);
        const got = unpackDateTime(hi, lo, 'datetime', dt.fsp);
        expect(norm(got)).toBe(norm(DateTime.fromPacked(dt.toPacked(), 'datetime', dt.fsp)));
        expect(norm(got)).toBe(norm(dt));
      }),
      { numRuns: 5000 },
    );
  });

  it('handles the extremes', () => {
    for (const dt of [new DateTime('datetime', 0, 0, 0), new DateTime('datetime', 9999, 12, 31, 23, 59, 59, 999999, 6)]) {
      const [hi, lo] = packDateTime(dt);
      expect(toBig([hi, lo])).toBe(dt.toPacked());
      expect(norm(unpackDateTime(hi, lo, 'datetime', dt.fsp))).toBe(norm(dt));
    }
  });
});
