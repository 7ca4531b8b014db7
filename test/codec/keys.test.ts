import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import {
  decodeIndexKey,
  decodeIndexValue,
  decodeIntHandle,
  decodeIntHandleAt,
  decodeMetaKey,
  decodeRecordKey,
  decodeTableId,
  encodeIndexValue,
  encodeKeyValues,
  indexKey,
  indexPrefix,
  metaKey,
  recordKey,
  recordPrefix,
  tablePrefix,
  type Handle,
} from '../../src/codec/index.js';
import type { Value } from '../../src/types/index.js';
import { makeType } from '../../src/types/index.js';
import { compareBytes, fromHex, toHex } from '../../src/util/index.js';
import { norm, typedArb } from './arbitraries.js';

const INT = makeType('bigint');
const VARCHAR = makeType('varchar', { length: 20, collation: 'utf8mb4_bin' });
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

const tableId = fc.integer({ min: 0, max: 2 ** 48 });
const int64 = fc.oneof(fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n, 1n), fc.bigInt({ min: INT64_MIN, max: INT64_MAX }));
const intHandle: fc.Arbitrary<Handle> = int64.map((value) => ({ kind: 'int', value }));
/** Common handles as the catalog makes them: a PK of (VARCHAR, INT), never 8 bytes long. */
const commonHandle: fc.Arbitrary<Handle> = fc
  .tuple(fc.string(), int64)
  .map(([s, i]) => ({ kind: 'common', encoded: encodeKeyValues([s, i], [VARCHAR, INT]) }));
const anyHandle = fc.oneof(intHandle, commonHandle);

function normHandle(h: Handle | null | undefined): unknown {
  if (h === null || h === undefined) return h;
  return h.kind === 'int' ? `int:${h.value}` : `common:${toHex(h.encoded)}`;
}

describe('worked examples (frozen on-disk format)', () => {
  test.each<[string, () => Uint8Array, string]>([
    ['tablePrefix(1)', () => tablePrefix(1), '748000000000000001'],
    ['tablePrefix(0)', () => tablePrefix(0), '748000000000000000'],
    ['recordPrefix(1)', () => recordPrefix(1), '7480000000000000015f72'],
    ['recordKey(1, int 5)', () => recordKey(1, { kind: 'int', value: 5n }), '7480000000000000015f728000000000000005'],
    ['recordKey(1, int -1)', () => recordKey(1, { kind: 'int', value: -1n }), '7480000000000000015f727fffffffffffffff'],
    ['recordKey(1, common)', () => recordKey(1, { kind: 'common', encoded: encodeKeyValues(['a'], [VARCHAR]) }), '7480000000000000015f720161' + '00000000000000f8'],
    ['indexPrefix(1, 2)', () => indexPrefix(1, 2), '7480000000000000015f698000000000000002'],
    ['indexKey(1, 2, [7])', () => indexKey(1, 2, [7n], [INT]), '7480000000000000015f698000000000000002038000000000000007'],
    [
      'indexKey(1, 2, [7], int 5)',
      () => indexKey(1, 2, [7n], [INT], { kind: 'int', value: 5n }),
      '7480000000000000015f698000000000000002038000000000000007038000000000000005',
    ],
    ['indexKey(1, 2, [NULL], common)', () => indexKey(1, 2, [null], [INT], { kind: 'common', encoded: fromHex('0161' + '00000000000000f8') }), '7480000000000000015f69800000000000000200' + '0161' + '00000000000000f8'],
    ['encodeIndexValue(null)', () => encodeIndexValue(null), '30'],
    ['encodeIndexValue(int 5)', () => encodeIndexValue({ kind: 'int', value: 5n }), '018000000000000005'],
    ['encodeIndexValue(common)', () => encodeIndexValue({ kind: 'common', encoded: fromHex('0161' + '00000000000000f8') }), '020161' + '00000000000000f8'],
    ['metaKey()', () => metaKey(), '6d'],
    ['metaKey(DBs)', () => metaKey('DBs'), '6d4442730000000000fa'],
    ['metaKey(DBs, 1)', () => metaKey('DBs', '1'), '6d4442730000000000fa' + '3100000000000000f8'],
  ])('%s', (_name, make, hex) => {
    expect(toHex(make())).toBe(hex);
  });
});

describe('record keys', () => {
  it('round trip int and common handles; the 8-byte suffix tells them apart', () => {
    fc.assert(
      fc.property(tableId, anyHandle, (tid, h) => {
        const key = recordKey(tid, h);
        const r = decodeRecordKey(key);
        expect(r.tableId).toBe(tid);
        expect(normHandle(r.handle)).toBe(normHandle(h));
        expect(normHandle(decodeRecordKey(key, h.kind).handle)).toBe(normHandle(h));
        expect(decodeTableId(key)).toBe(tid);
        expect(toHex(key).startsWith(toHex(recordPrefix(tid)))).toBe(true);
      }),
    );
  });

  it('an 8-byte common handle needs the handleKind hint', () => {
    const dec = makeType('decimal', { length: 4, scale: 0 });
    const h: Handle = { kind: 'common', encoded: encodeKeyValues([null, null, null, null, null, null, null, null], Array(8).fill(dec)) };
    expect(h.encoded.length).toBe(8);
    expect(decodeRecordKey(recordKey(3, h)).handle.kind).toBe('int');
    expect(normHandle(decodeRecordKey(recordKey(3, h), 'common').handle)).toBe(normHandle(h));
  });

  it('int handles order like the integers; table ids order their key spaces', () => {
    fc.assert(
      fc.property(tableId, int64, int64, (tid, a, b) => {
        const ka = recordKey(tid, { kind: 'int', value: a });
        const kb = recordKey(tid, { kind: 'int', value: b });
        expect(Math.sign(compareBytes(ka, kb))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
    fc.assert(
      fc.property(tableId, tableId, (a, b) => {
        expect(Math.sign(compareBytes(tablePrefix(a), tablePrefix(b)))).toBe(Math.sign(a - b));
      }),
    );
  });

  it('decodeIntHandleAt reads an int handle at an offset inside a larger buffer', () => {
    fc.assert(
      fc.property(tableId, int64, fc.nat(16), fc.nat(16), (tid, v, before, after) => {
        const key = recordKey(tid, { kind: 'int', value: v });
        const buf = new Uint8Array(before + key.length + after).fill(0x72);
        buf.set(key, before);
        expect(decodeIntHandleAt(buf, before, before + key.length)).toBe(v);
        expect(decodeIntHandle(key)).toBe(v);
        // The key's own end counts, not the buffer's: one byte more or less is not an int handle.
        expect(() => decodeIntHandleAt(buf, before, before + key.length - 1)).toThrow(/corrupt/);
        if (after > 0) expect(() => decodeIntHandleAt(buf, before, before + key.length + 1)).toThrow(/corrupt/);
      }),
    );
    const ik = indexKey(1, 1, [7n], [INT], { kind: 'int', value: 5n });
    expect(() => decodeIntHandleAt(ik, 0, ik.length)).toThrow(/corrupt/);
    expect(() => decodeIntHandleAt(ik, 0, 19)).toThrow(/corrupt/);
  });

  it('rejects non-record keys', () => {
    expect(() => decodeRecordKey(indexPrefix(1, 1))).toThrow(/corrupt/);
    expect(() => decodeRecordKey(recordPrefix(1))).toThrow(/corrupt/);
    expect(() => decodeRecordKey(recordKey(1, { kind: 'common', encoded: fromHex('0380') }), 'int')).toThrow(/corrupt/);
  });
});

describe('index keys', () => {
  const indexCase = fc.array(typedArb, { minLength: 1, maxLength: 4 }).chain((tas) =>
    fc.tuple(
      fc.constant(tas.map((ta) => ta.type)),
      fc.tuple(...tas.map((ta) => fc.option(ta.value, { freq: 4 }))),
      fc.oneof(fc.constant(undefined), intHandle, commonHandle),
    ),
  );

  it('round trip values and the handle for each handle kind', () => {
    fc.assert(
      fc.property(tableId, fc.integer({ min: 1, max: 1000 }), indexCase, (tid, iid, [types, vals, h]) => {
        const key = indexKey(tid, iid, vals, types, h);
        expect(toHex(key).startsWith(toHex(indexPrefix(tid, iid)))).toBe(true);
        const r = decodeIndexKey(key, types, h === undefined ? 'none' : h.kind);
        const want = vals.map((v: Value) => norm(typeof v === 'number' && v === 0 ? 0 : v));
        expect(r.values.map(norm)).toEqual(want);
        expect(normHandle(r.handle)).toBe(normHandle(h));
      }),
      { numRuns: 1000 },
    );
  });

  it('non-distinct entries with equal values order by handle', () => {
    fc.assert(
      fc.property(fc.string(), int64, int64, (s, a, b) => {
        const ka = indexKey(1, 1, [s], [VARCHAR], { kind: 'int', value: a });
        const kb = indexKey(1, 1, [s], [VARCHAR], { kind: 'int', value: b });
        expect(Math.sign(compareBytes(ka, kb))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it('a value-prefix key is a byte prefix of the full keys', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -5n, max: 5n }), fc.string(), (i, s) => {
        const prefix = indexKey(4, 1, [i], [INT, VARCHAR]);
        const full = indexKey(4, 1, [i, s], [INT, VARCHAR], { kind: 'int', value: 9n });
        expect(toHex(full).startsWith(toHex(prefix))).toBe(true);
      }),
    );
  });

  it('rejects a missing or malformed handle suffix', () => {
    const key = indexKey(1, 1, [1n], [INT]);
    expect(() => decodeIndexKey(key, [INT], 'int')).toThrow(/corrupt/);
    expect(() => decodeIndexKey(key, [INT], 'common')).toThrow(/corrupt/);
    expect(() => decodeIndexKey(indexKey(1, 1, [1n], [INT], { kind: 'int', value: 1n }), [INT], 'none')).toThrow(/corrupt/);
    expect(() => decodeIndexKey(recordKey(1, { kind: 'int', value: 1n }), [INT], 'none')).toThrow(/corrupt/);
  });
});

describe('index values', () => {
  it('round trip', () => {
    fc.assert(
      fc.property(fc.option(anyHandle), (h) => {
        expect(normHandle(decodeIndexValue(encodeIndexValue(h)))).toBe(normHandle(h));
      }),
    );
  });

  it('rejects unknown formats', () => {
    for (const hex of ['', '31', '3030', '0180', '02', 'ff']) expect(() => decodeIndexValue(fromHex(hex))).toThrow(/corrupt/);
  });
});

describe('meta keys', () => {
  const part = fc.string({ unit: 'grapheme', maxLength: 20 });

  it('metaKey(a) is a byte prefix of metaKey(a, b)', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 3 }), fc.array(part, { minLength: 1, maxLength: 3 }), (a, b) => {
        const ka = toHex(metaKey(...a));
        const kab = toHex(metaKey(...a, ...b));
        expect(kab.startsWith(ka)).toBe(true);
        expect(kab.length).toBeGreaterThan(ka.length);
      }),
    );
  });

  it('round trips and never makes metaKey(a) a prefix of metaKey(a + x)', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), part, (parts, x) => {
        expect(decodeMetaKey(metaKey(...parts))).toEqual(parts);
        if (x !== '') {
          const a = toHex(metaKey('DB:1'));
          expect(toHex(metaKey('DB:1' + x)).startsWith(a)).toBe(false);
        }
      }),
    );
  });
});
