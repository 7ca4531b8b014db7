import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIndexValue, indexKey, indexPrefix, intHandleEntryPart, INT_HANDLE_VALUE_LEN, recordKey } from '../../src/codec/index.js';
import { makeType } from '../../src/types/index.js';
import { concatBytes, toHex } from '../../src/util/index.js';
import { stringValue } from './arbitraries.js';

const INT = makeType('int', {});
const VARCHAR = makeType('varchar', { length: 40 });
const TABLE = 7;
const INDEX = 3;
const handleArb = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });

/** The entry part from a record key embedded in a larger buffer at `at` (as the store's scan hands it). */
function partFromEmbedded(values: Array<string | bigint | null>, distinct: boolean, handle: bigint, at: number): Uint8Array {
  const key = recordKey(TABLE, { kind: 'int', value: handle });
  const buf = new Uint8Array(at + key.length + 5).fill(0xee);
  buf.set(key, at);
  return intHandleEntryPart(values, [INT, VARCHAR], distinct, buf, at, at + key.length).slice();
}

describe('index entry parts from record keys', () => {
  it('matches the worked example of the file comment', () => {
    const key = recordKey(TABLE, { kind: 'int', value: 5n });
    expect(toHex(intHandleEntryPart([7n], [INT], false, key, 0, key.length))).toBe('038000000000000007038000000000000005');
    expect(toHex(intHandleEntryPart([7n], [INT], true, key, 0, key.length))).toBe('038000000000000007018000000000000005');
  });

  it('is the index key after its prefix (non-distinct), or the key part and then the value (distinct) (property)', () => {
    const prefix = indexPrefix(TABLE, INDEX);
    fc.assert(
      fc.property(fc.option(fc.bigInt({ min: -(2n ** 31n), max: 2n ** 31n - 1n }), { nil: null }), fc.option(stringValue, { nil: null }), handleArb, fc.nat(30), (k, s, h, at) => {
        const handle = { kind: 'int' as const, value: h };
        const full = indexKey(TABLE, INDEX, [k, s], [INT, VARCHAR], handle);
        expect(toHex(partFromEmbedded([k, s], false, h, at))).toBe(toHex(full.subarray(prefix.length)));
        const distinctKey = indexKey(TABLE, INDEX, [k, s], [INT, VARCHAR]);
        const expected = concatBytes([distinctKey.subarray(prefix.length), encodeIndexValue(handle)]);
        const part = partFromEmbedded([k, s], true, h, at);
        expect(toHex(part)).toBe(toHex(expected));
        expect(encodeIndexValue(handle).length).toBe(INT_HANDLE_VALUE_LEN);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a record key that is not an int handle\'s', () => {
    const key = recordKey(TABLE, { kind: 'int', value: 1n });
    expect(() => intHandleEntryPart([1n], [INT], false, key, 0, key.length - 1)).toThrow(/record key of 18 bytes/);
  });
});
