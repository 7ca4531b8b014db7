/**
 * LMDB's leaf splits as ShaleDB's build changes them (scripts/lmdb-run-splits.mjs): a run of
 * ascending inserts that goes in before another key range's keys on the same page (tables loaded
 * side by side in one database) keeps its pages full, and whatever the mix of runs, random
 * inserts, large values, overwrites and deletes, the database holds exactly what was written.
 */
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import type { Database } from 'lmdb';
import { lmdbHasOpenFix } from '../../src/kv/embedded/lmdb-build.js';
import { openEnvironment, type OpenedEnvironment } from '../../src/kv/embedded/open-environment.js';
import { tempDir } from './backends.js';

interface Opened {
  readonly env: OpenedEnvironment;
  readonly data: Database<Buffer, Buffer>;
  readonly dir: string;
}

function openData(): Opened {
  const dir = tempDir('shale-run-splits-');
  const env = openEnvironment(dir, { mapSize: 1 << 28 }, true, 16);
  if (env === undefined) throw new Error('unreachable');
  const data = env.root.openDB<Buffer, Buffer>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
  return { env, data, dir };
}

function close(o: Opened): void {
  o.env.room?.close();
  void o.env.root.close();
  rmSync(o.dir, { recursive: true, force: true });
}

/** A row key of table `table` (a byte) with handle `id`, shaped like ShaleDB's (19 bytes). */
function rowKey(table: number, id: number): Buffer {
  const k = Buffer.alloc(19);
  k.write('t', 0);
  k.writeUInt8(0x80, 1);
  k.writeUInt8(table, 8);
  k.write('_r', 9);
  k.writeUInt8(0x80, 11);
  k.writeUInt32BE(id, 15);
  return k;
}

function leafPages(data: Database<Buffer, Buffer>): { leaves: number; entries: number } {
  const s = data.getStats() as { treeLeafPageCount: number; entryCount: number };
  return { leaves: s.treeLeafPageCount, entries: s.entryCount };
}

describe('run splits', () => {
  it('are in the lmdb-js build the store loads', () => {
    expect(lmdbHasOpenFix()).toBe(true);
  });

  it('keep the pages of tables loaded side by side full', () => {
    const o = openData();
    try {
      // Four tables appended in batches of 500 rows, the batches in a shuffled order (as four
      // sysbench threads' INSERTs arrive); 206-byte values, 17 such entries fit on a 4 KiB page.
      const value = Buffer.alloc(206, 0x61);
      const order = [0, 1, 2, 3].flatMap((t) => Array.from({ length: 8 }, () => t));
      let seed = 7;
      for (let i = order.length - 1; i > 0; i--) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const j = seed % (i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const next = [1, 1, 1, 1];
      for (const t of order) {
        o.env.root.transactionSync(() => {
          for (let i = 0; i < 500; i++) o.data.putSync(rowKey(t + 1, next[t]!++), value);
        });
      }
      const { leaves, entries } = leafPages(o.data);
      expect(entries).toBe(16_000);
      // Stock LMDB leaves these at ~11.2 entries per page (the left halves of middle splits).
      expect(entries / leaves).toBeGreaterThan(15);
      let expectId = 1;
      let table = 1;
      for (const { key } of o.data.getRange()) {
        if (key[8] !== table) {
          expect(expectId).toBe(4_001);
          table = key[8]!;
          expectId = 1;
        }
        expect(key.readUInt32BE(15)).toBe(expectId++);
      }
    } finally {
      close(o);
    }
  });

  it('leave a database holding exactly what was written', () => {
    type Step =
      | { kind: 'run'; table: number; start: number; count: number; size: number }
      | { kind: 'put'; table: number; id: number; size: number }
      | { kind: 'del'; table: number; id: number };
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('run' as const), table: fc.integer({ min: 1, max: 4 }), start: fc.integer({ min: 0, max: 3000 }), count: fc.integer({ min: 1, max: 300 }), size: fc.integer({ min: 0, max: 2600 }) }),
      fc.record({ kind: fc.constant('put' as const), table: fc.integer({ min: 1, max: 4 }), id: fc.integer({ min: 0, max: 3300 }), size: fc.integer({ min: 0, max: 2600 }) }),
      fc.record({ kind: fc.constant('del' as const), table: fc.integer({ min: 1, max: 4 }), id: fc.integer({ min: 0, max: 3300 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(stepArb, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 12 }), (txns) => {
        const o = openData();
        try {
          const model = new Map<string, Buffer>();
          const put = (key: Buffer, size: number): void => {
            const value = Buffer.alloc(size, key[18]! ^ size);
            o.data.putSync(key, value);
            model.set(key.toString('hex'), value);
          };
          for (const steps of txns) {
            o.env.root.transactionSync(() => {
              for (const s of steps) {
                if (s.kind === 'run') for (let i = 0; i < s.count; i++) put(rowKey(s.table, s.start + i), s.size);
                else if (s.kind === 'put') put(rowKey(s.table, s.id), s.size);
                else {
                  o.data.removeSync(rowKey(s.table, s.id));
                  model.delete(rowKey(s.table, s.id).toString('hex'));
                }
              }
            });
          }
          const stored = [...o.data.getRange()].map(({ key, value }) => `${Buffer.from(key).toString('hex')} ${Buffer.from(value).toString('hex')}`);
          const expected = [...model.keys()].sort().map((k) => `${k} ${model.get(k)!.toString('hex')}`);
          expect(stored).toEqual(expected);
        } finally {
          close(o);
        }
      }),
      { numRuns: 40 },
    );
  });
});
