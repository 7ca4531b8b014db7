/**
 * CREATE INDEX's backfill under concurrent writers: the sorted build (catalog/sorted-backfill.ts)
 * and its fall-back to range batches, and range batches that split under a steady write load.
 */
import { describe, expect, it } from 'vitest';
import { Catalog, decodeRecord, encodeRecordValue, indexEntry, recordKeyOf, type IndexInfo, type TableInfo } from '../../src/catalog/index.js';
import { backfillSettings } from '../../src/catalog/backfill.js';
import { SORTED_BACKFILL_MAX_ROWS } from '../../src/catalog/sorted-backfill.js';
import { decoderReadsHandle } from '../../src/catalog/record.js';
import { indexPrefix } from '../../src/codec/index.js';
import type { KeyRun, Txn } from '../../src/txn/index.js';
import { col, expectSqlError, storeFactories, t } from './helpers.js';
import type { Value } from '../../src/types/index.js';
import { indexBuildFixture } from './index-build-fixture.js';

const factories = await storeFactories();

describe.each(factories)('CREATE INDEX backfill order ($name)', (factory) => {
  const fx = indexBuildFixture(factory);

  /**
   * A catalog whose sorted builds (sorted-backfill.ts: begin, then a Txn.commitRun per batch) run
   * `writer` before or after their first batch commits; `batches()` counts the sorted batches.
   */
  /** CREATE INDEX `spec` on t through a catalog that counts the sorted build's batches; the count. */
  async function countedBuild(spec: ReturnType<typeof fx.idx>): Promise<number> {
    const hooked = catalogWithSortedWriter(async () => undefined, 'after-commit');
    await (await hooked.open()).createIndex('d', 't', spec, false);
    return hooked.batches();
  }

  function catalogWithSortedWriter(writer: () => Promise<void>, at: 'before-commit' | 'after-commit'): { open: () => Promise<Catalog>; batches: () => number } {
    let batches = 0;
    const base = fx.s.txns;
    const forward = <T extends object>(target: T, prop: string | symbol): unknown => {
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    };
    const hookRuns = (txn: Txn): Txn =>
      new Proxy(txn, {
        get: (target, prop) =>
          prop !== 'commitRun'
            ? forward(target, prop)
            : async (run: KeyRun) => {
                const first = ++batches === 1;
                if (first && at === 'before-commit') await writer();
                await target.commitRun(run);
                if (first && at === 'after-commit') await writer();
              },
      });
    const begin = async (): Promise<Txn> => hookRuns(await base.begin());
    const hooked: typeof base = { kv: base.kv, begin, view: (fn) => base.view(fn), update: (fn, retries) => base.update(fn, retries) };
    return { open: () => Catalog.open(hooked), batches: () => batches };
  }

  /** Ids 0..2299 with v = id % 1000 (INT): in key order the first batch of 1,000 holds v 0..349. */
  async function intRows(): Promise<TableInfo> {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    await fx.insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), BigInt(i % 1000)]));
    return info;
  }

  /** A writer's change of row `id` from v `from` to `to` (null: deleted), maintaining the writeOnly index. */
  const moveRow = (txn: Txn, tbl: TableInfo, ix: IndexInfo, id: bigint, from: bigint, to: bigint | null): void => {
    const h = { kind: 'int', value: id } as const;
    txn.delete(indexEntry(tbl, ix, [id, from], h).key);
    if (to === null) {
      txn.delete(recordKeyOf(tbl, h));
      return;
    }
    txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, [id, to]));
    const e = indexEntry(tbl, ix, [id, to], h);
    txn.put(e.key, e.value);
  };

  it('builds a fixed-width index in key order from one snapshot, in several batches', async () => {
    await intRows();
    expect(await countedBuild(fx.idx('iv', ['v']))).toBe(3);
    await fx.checkIndex(await fx.current(), 'iv');
  });

  it('takes the range batches over the row limit; sorts entry keys of several lengths too', async () => {
    const info = await intRows();
    for (const limit of [500, 1000]) {
      backfillSettings.sortedMaxRows = limit; // 500: the handle span says too many; 1000: found out after 1,000 rows
      expect(await countedBuild(fx.idx('iv', ['v']))).toBe(0);
      await fx.checkIndex(await fx.current(), 'iv');
      await fx.cat.dropIndex('d', 't', 'iv', false);
    }
    backfillSettings.sortedMaxRows = SORTED_BACKFILL_MAX_ROWS;
    await fx.cat.dropTable('d', 't', false);
    const strings = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    // Values of 1..9 and 17 characters (key parts of 19, 28 and 37 bytes), some NULL, out of order.
    await fx.insert(strings, Array.from({ length: 1500 }, (_, i) => [BigInt(i), i % 11 === 0 ? null : i % 13 === 0 ? `${i % 7}`.repeat(17) : String.fromCharCode(122 - (i % 26)).repeat(1 + (i % 9))]));
    expect(await countedBuild(fx.idx('iv', ['v']))).toBe(2);
    await fx.checkIndex(await fx.current(), 'iv');
    await fx.cat.dropIndex('d', 't', 'iv', false);
    // Unique: distinct values of several lengths are sorted too.
    await fx.cat.dropTable('d', 't', false);
    const names = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 20 }))]);
    await fx.insert(names, Array.from({ length: 1500 }, (_, i) => [BigInt(i), `n${(i * 7) % 1500}`]));
    expect(await countedBuild(fx.idx('iv', ['v'], true))).toBe(2);
    await fx.checkIndex(await fx.current(), 'iv');
  });

  it('builds a unique index in key order too, each entry naming its row', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    await fx.insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), BigInt((i * 7919) % 2300)])); // v distinct
    expect(await countedBuild(fx.idx('uv', ['v'], true))).toBe(3);
    await fx.checkIndex(await fx.current(), 'uv');
  });

  it('sorts indexes that hold the PK column (its value read from the row\'s handle), unique or not', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    await fx.insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i - 1000), BigInt(i % 7)]));
    expect(decoderReadsHandle(info, [1])).toBe(false);
    expect(decoderReadsHandle(info, [1, 0])).toBe(true);
    for (const [name, columns, unique] of [['vi', ['v', 'id'], false], ['iv', ['id', 'v'], true]] as const) {
      expect(await countedBuild(fx.idx(name, [...columns], unique))).toBe(3);
      await fx.checkIndex(await fx.current(), name);
    }
  });

  it('leaves a unique index with a duplicate to the range batches, which report it, with nothing written', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    const rows: Value[][] = Array.from({ length: 2300 }, (_, i) => [BigInt(i), BigInt(i)]);
    rows.push([9000n, 1777n]); // its twin lies in the last of the sorted batches
    await fx.insert(info, rows);
    const hooked = catalogWithSortedWriter(async () => undefined, 'after-commit');
    await expectSqlError((await hooked.open()).createIndex('d', 't', fx.idx('uv', ['v'], true), false), 1062, "Duplicate entry '1777' for key 't.uv'");
    expect(hooked.batches()).toBe(0);
    expect((await fx.current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY']);
    expect(await fx.countRange(indexPrefix(info.id, 2))).toBe(0);
  });

  it('sorts a unique index whose rows all hold NULL (entries keyed by their rows), not one that mixes NULLs in', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    await fx.insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), null]));
    expect(await countedBuild(fx.idx('uv', ['v'], true))).toBe(3);
    await fx.checkIndex(await fx.current(), 'uv');
    await fx.cat.dropIndex('d', 't', 'uv', false);
    await fx.insert(info, [[5000n, 5n]]);
    expect(await countedBuild(fx.idx('uv', ['v'], true))).toBe(0);
    await fx.checkIndex(await fx.current(), 'uv');
  });

  it('reports while it reads the table, so a stop (KILL QUERY) ends it before anything is written', async () => {
    const info = await intRows();
    backfillSettings.batchSize = 10; // 230 pages to read: reports after every 16th
    const seen: Array<[number, number]> = [];
    const stop = (st: { rowsDone: number; rowsTotal: number }): void => {
      seen.push([st.rowsDone, st.rowsTotal]);
      if (seen.length === 2) throw new Error('stopped');
    };
    await expect(fx.cat.createIndex('d', 't', fx.idx('iv', ['v']), false, stop)).rejects.toThrow('stopped');
    expect(seen).toEqual([[0, 2300], [0, 2300]]);
    expect((await fx.current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY']);
    expect(await fx.countRange(indexPrefix(info.id, 2))).toBe(0);
  });

  it('goes over the table in range batches once a write after its snapshot meets a sorted batch', async () => {
    await intRows();
    const writer = fx.writeWithIndex((txn, tbl, ix) => {
      expect(ix.state).toBe('writeOnly');
      moveRow(txn, tbl, ix, 0n, 0n, 999n); // its old entry is in the first batch: that batch conflicts
      moveRow(txn, tbl, ix, 1500n, 500n, null);
      const h = { kind: 'int', value: 5000n } as const;
      txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, [5000n, 1n]));
      const e = indexEntry(tbl, ix, [5000n, 1n], h);
      txn.put(e.key, e.value);
    });
    const hooked = catalogWithSortedWriter(writer, 'before-commit');
    await (await hooked.open()).createIndex('d', 't', fx.idx('iv', ['v']), false);
    await fx.checkIndex(await fx.current(), 'iv');
  });

  it('meets a writer\'s duplicate of a unique index in a sorted batch\'s check, and the range batches report it', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    await fx.insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), BigInt(i)]));
    const writer = fx.writeWithIndex((txn, tbl, ix) => {
      // A new row with row 3's value, and its entry (the index is writeOnly): key v=3, in the first batch.
      const h = { kind: 'int', value: 5000n } as const;
      txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, [5000n, 3n]));
      const e = indexEntry(tbl, ix, [5000n, 3n], h);
      txn.put(e.key, e.value);
    });
    const hooked = catalogWithSortedWriter(writer, 'before-commit');
    await expectSqlError((await hooked.open()).createIndex('d', 't', fx.idx('iv', ['v'], true), false), 1062, "Duplicate entry '3' for key 't.iv'");
    expect(hooked.batches()).toBeGreaterThanOrEqual(1); // the second may have been under way
    expect(await fx.countRange(indexPrefix(info.id, 2))).toBe(0);
    expect((await fx.current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY']);
  });

  it('keeps the batches already committed when a later one conflicts (writers maintain those)', async () => {
    const info = await intRows();
    const writer = fx.writeWithIndex((txn, tbl, ix) => {
      moveRow(txn, tbl, ix, 1000n, 0n, 7n); // already written by the first batch
      moveRow(txn, tbl, ix, 1900n, 900n, 5n); // not yet written: the last batch conflicts
    });
    const hooked = catalogWithSortedWriter(writer, 'after-commit');
    await (await hooked.open()).createIndex('d', 't', fx.idx('iv', ['v']), false);
    await fx.checkIndex(await fx.current(), 'iv');
    expect(await fx.countRange(indexPrefix(info.id, 2))).toBe(2300);
  });

  it('splits a range batch that keeps conflicting under a steady write load, and finishes', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await fx.insert(await fx.current(), Array.from({ length: 1500 }, (_, i) => [BigInt(i), `v${i % 5}`]));
    // Row 900 changes before each of the first 20 backfill commits: the batch that holds it keeps
    // conflicting (more often than TxnStore.update's 10 retries) until it is split.
    const h900 = { kind: 'int', value: 900n } as const;
    const moveRow900 = (): Promise<void> =>
      fx.s.txns.update(async (txn) => {
        const tbl = (await fx.cat.schemaFor(txn)).table('d', 't');
        const ix = tbl?.indexes.find((i) => i.name === 'iv');
        if (tbl === undefined || ix === undefined) throw new Error('index not visible to writers');
        txn.lockKeys([fx.cat.tableDefKey(tbl)]);
        const stored = await txn.get(recordKeyOf(tbl, h900));
        if (stored === undefined) throw new Error('row 900 missing');
        const before = decodeRecord(tbl, h900, stored);
        const after = [900n, `w${String(before[1]).slice(1)}x`.slice(0, 10)];
        txn.delete(indexEntry(tbl, ix, before, h900).key);
        txn.put(recordKeyOf(tbl, h900), encodeRecordValue(tbl, after));
        const e = indexEntry(tbl, ix, after, h900);
        txn.put(e.key, e.value);
      });
    let calls = 0;
    let writes = 0;
    const base = fx.s.txns;
    const hooked: typeof base = {
      kv: base.kv,
      begin: () => base.begin(),
      view: (fn) => base.view(fn),
      update: <T>(fn: Parameters<typeof base.update<T>>[0], retries?: number): Promise<T> =>
        base.update(async (txn) => {
          const result = await fn(txn);
          if (++calls >= 2 && writes < 20) {
            await moveRow900();
            writes++;
          }
          return result;
        }, retries),
    };
    await (await Catalog.open(hooked)).createIndex('d', 't', fx.idx('iv', ['v']), false);
    expect(writes).toBe(20);
    await fx.checkIndex(await fx.current(), 'iv');
  });
});
