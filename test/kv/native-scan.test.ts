/**
 * Range reads through the add-on's scan function (src/kv/embedded/native-scan.ts) against
 * lmdb-js's own iterator, the path builds without the function take: both RawRangeReaders read
 * the same LMDB database in the same read transaction, over random keys (shared prefixes,
 * lengths 1-40), values from empty to larger than the scanner's 64 KiB buffer, tombstones, and
 * random ranges, directions and limits.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { open, type Transaction } from 'lmdb';
import type { KeyRange } from '../../src/kv/index.js';
import { addonFunctions } from '../../src/kv/embedded/lmdb-build.js';
import { RawRangeReader } from '../../src/kv/embedded/raw-range.js';
import { tempDir } from './backends.js';

const LIVE = 1;
const TOMBSTONE = 0;

/** A stored value as value-format.ts lays it out: 8-byte commit ts, kind, payload. */
function stored(kind: number, payload: Uint8Array): Buffer {
  const out = Buffer.alloc(9 + payload.length);
  out.writeBigUInt64BE(7n, 0);
  out[8] = kind;
  out.set(payload, 9);
  return out;
}

const keyArb = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 40 }),
  fc.uint8Array({ minLength: 0, maxLength: 6 }).map((tail) => Uint8Array.from([0x74, 0x80, 0, 1, ...tail])),
);
const entryArb = fc.record({
  key: keyArb,
  live: fc.boolean(),
  size: fc.oneof({ weight: 8, arbitrary: fc.nat(300) }, { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 140_000 }) }),
});
const rangeArb = fc.record({ a: keyArb, b: keyArb, noStart: fc.boolean(), reverse: fc.boolean(), limit: fc.integer({ min: 1, max: 700 }) });

describe('native range scan', () => {
  it('is what lmdb-js built with ShaleDB uses', () => {
    const dir = tempDir('shale-native-scan-');
    const root = open<Buffer, string>({ path: dir, noSubdir: false, maxDbs: 8, noSync: true });
    try {
      expect(addonFunctions(root)?.scan).toBeTypeOf('function');
      expect(new RawRangeReader(root, 'data', addonFunctions(root)?.scan).native).toBe(true);
      expect(new RawRangeReader(root, 'data', undefined).native).toBe(false);
    } finally {
      void root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns what lmdb-js iterator returns for random data, ranges, directions and limits', async () => {
    const dir = tempDir('shale-native-scan-');
    const root = open<Buffer, string>({ path: dir, noSubdir: false, maxDbs: 8, noSync: true, mapSize: 1 << 30 });
    const data = root.openDB<Buffer, Uint8Array>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    const native = new RawRangeReader(root, 'data', addonFunctions(root)?.scan);
    const iterator = new RawRangeReader(root, 'data', undefined);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(entryArb, { maxLength: 900 }), fc.array(rangeArb, { minLength: 1, maxLength: 6 }), async (entries, ranges) => {
          await data.clearAsync();
          await data.transaction(() => {
            for (const e of entries) data.put(Buffer.from(e.key), stored(e.live ? LIVE : TOMBSTONE, Buffer.alloc(e.size, e.size & 0xff)));
          });
          const txn = data.useReadTransaction();
          try {
            for (const r of ranges) {
              const [low, high] = Buffer.compare(r.a, r.b) <= 0 ? [r.a, r.b] : [r.b, r.a];
              const range: KeyRange = { start: r.noStart ? new Uint8Array(0) : low, end: high };
              compareReaders(native, iterator, txn, range, r.reverse, r.limit);
            }
          } finally {
            txn.done();
          }
        }),
        { numRuns: 60 },
      );
    } finally {
      await root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** Both readers' scan() and scanMapped() over one range agree, pair for pair and on lastKey. */
function compareReaders(native: RawRangeReader, iterator: RawRangeReader, txn: Transaction, range: KeyRange, reverse: boolean, limit: number): void {
  const hex = (b: Uint8Array, s = 0, e = b.length): string => Buffer.from(b.subarray(s, e)).toString('hex');
  const map = (k: Uint8Array, ks: number, ke: number, v: Uint8Array, vs: number, ve: number): string => `${hex(k, ks, ke)}=${hex(v, vs, ve)}`;
  const a = native.scanMapped(txn, range, reverse, limit, map);
  const b = iterator.scanMapped(txn, range, reverse, limit, map);
  expect(a.items).toEqual(b.items);
  expect(a.lastKey === undefined ? undefined : hex(a.lastKey)).toEqual(b.lastKey === undefined ? undefined : hex(b.lastKey));
  const pairs = (p: ReturnType<RawRangeReader['scan']>): string[] => p.map((x) => `${hex(x.key)}=${hex(x.value)}`);
  expect(pairs(native.scan(txn, range, reverse, limit))).toEqual(pairs(iterator.scan(txn, range, reverse, limit)));
}
