import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Catalog,
  decodeRecord,
  encodeRecordValue,
  indexEntry,
  recordKeyOf,
  rowHandle,
  type IndexInfo,
  type IndexSpec,
  type TableInfo,
} from '../../src/catalog/index.js';
import type { Txn } from '../../src/txn/index.js';
import { decodeRecordKey, indexPrefix, recordPrefix } from '../../src/codec/index.js';
import type { Value } from '../../src/types/index.js';
import { bytesEqual, prefixEnd } from '../../src/util/index.js';
import { BACKFILL_BATCH, backfillSettings } from '../../src/catalog/backfill.js';
import { SORTED_BACKFILL_MAX_ROWS } from '../../src/catalog/sorted-backfill.js';
import { col, expectSqlError, key, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();

describe.each(factories)('CREATE / DROP INDEX ($name)', (factory) => {
  let s: TestStore;
  let cat: Catalog;

  beforeEach(async () => {
    s = await factory.make();
    cat = await Catalog.open(s.txns);
    await cat.createDatabase('d', { ifNotExists: false });
    backfillSettings.batchSize = 1000; // several batches for the multi-batch cases below
  });
  afterEach(async () => {
    backfillSettings.batchSize = BACKFILL_BATCH;
    backfillSettings.sortedMaxRows = SORTED_BACKFILL_MAX_ROWS;
    await s.close();
  });

  const idx = (name: string, columns: string[], unique = false): IndexSpec & { name: string } => ({
    name,
    columns: columns.map((c) => ({ name: c })),
    unique,
    primary: false,
  });

  async function create(cols: Parameters<typeof spec>[1], indexes: Parameters<typeof spec>[2] = []): Promise<TableInfo> {
    const info = await cat.createTable('d', spec('t', cols, indexes), false);
    if (info === null) throw new Error('not created');
    return info;
  }

  async function current(): Promise<TableInfo> {
    const info = (await cat.latestSchema()).table('d', 't');
    if (info === undefined) throw new Error('no table');
    return info;
  }

  async function insert(info: TableInfo, rows: Value[][]): Promise<void> {
    let rowId = info.handleKind === 'int' && !info.pkIsHandle ? await cat.allocAutoId(info, rows.length) : 0n;
    for (let i = 0; i < rows.length; i += 500) {
      await s.txns.update(async (txn) => {
        for (const row of rows.slice(i, i + 500)) {
          const handle = rowHandle(info, row, rowId++);
          txn.put(recordKeyOf(info, handle), encodeRecordValue(info, row));
        }
      });
    }
  }

  async function countRange(prefix: Uint8Array): Promise<number> {
    return s.txns.view(async (txn) => (await txn.scan({ start: prefix, end: prefixEnd(prefix) }, { limit: 1_000_000 })).length);
  }

  /**
   * A catalog whose second transaction (the first backfill batch) runs `writer` before its own
   * commit or after it; `calls()` counts the transactions it ran.
   */
  function catalogWithWriter(writer: () => Promise<void>, at: 'before-commit' | 'after-commit'): { open: () => Promise<Catalog>; calls: () => number } {
    let calls = 0;
    const base = s.txns;
    const hooked: typeof base = {
      kv: base.kv,
      begin: () => base.begin(),
      view: (fn) => base.view(fn),
      update: async <T>(fn: Parameters<typeof s.txns.update<T>>[0], retries?: number): Promise<T> => {
        if (at === 'after-commit') {
          const result = await s.txns.update(fn, retries);
          if (++calls === 2) await writer();
          return result;
        }
        return s.txns.update(async (txn) => {
          const result = await fn(txn);
          if (++calls === 2) await writer();
          return result;
        }, retries);
      },
    };
    return { open: () => Catalog.open(hooked), calls: () => calls };
  }

  /** A writer's transaction on t while index iv is built: it sees iv (writeOnly) and maintains it, as every writer does. */
  function writeWithIndex(body: (txn: Txn, tbl: TableInfo, ix: IndexInfo) => void): () => Promise<void> {
    return () =>
      s.txns.update(async (txn) => {
        const tbl = (await cat.schemaFor(txn)).table('d', 't');
        const ix = tbl?.indexes.find((i) => i.name === 'iv');
        if (tbl === undefined || ix === undefined) throw new Error('index not visible to writers');
        txn.lockKeys([cat.tableDefKey(tbl)]);
        body(txn, tbl, ix);
      });
  }

  /** Every row has its entry with the right value, and there is nothing else in the index. */
  async function checkIndex(info: TableInfo, name: string): Promise<void> {
    const index = info.indexes.find((ix) => ix.name === name);
    if (index === undefined) throw new Error(`no index ${name}`);
    expect(index.state).toBe('public');
    await s.txns.view(async (txn) => {
      const rp = recordPrefix(info.id);
      const records = await txn.scan({ start: rp, end: prefixEnd(rp) }, { limit: 1_000_000 });
      for (const r of records) {
        const { handle } = decodeRecordKey(r.key);
        const e = indexEntry(info, index, decodeRecord(info, handle, r.value), handle);
        const stored = await txn.get(e.key);
        expect(stored !== undefined && bytesEqual(stored, e.value)).toBe(true);
      }
      expect(await countRange(indexPrefix(info.id, index.id))).toBe(records.length);
    });
  }

  it('backfills a non-unique index over several batches (int handle)', async () => {
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), `v${i % 7}`]));
    await cat.createIndex('d', 't', idx('iv', ['v']), false);
    const after = await current();
    expect(after.indexes.map((ix) => [ix.name, ix.id])).toEqual([['PRIMARY', 1], ['iv', 2]]);
    expect(after.maxIndexId).toBe(2);
    await checkIndex(after, 'iv');
  });

  it('backfills a unique index with NULLs (hidden row id) and a common-handle table', async () => {
    const hidden = await create([col('a', t('int')), col('b', t('int'))]);
    await insert(hidden, [[1n, null], [2n, null], [3n, 3n]]);
    await cat.createIndex('d', 't', idx('ub', ['b'], true), false);
    await checkIndex(await current(), 'ub');
    await cat.dropTable('d', 't', false);

    const common = await create([col('k', t('varchar', { length: 10 })), col('n', t('int'))], [key(['k', 'n'], { primary: true })]);
    await insert(common, Array.from({ length: 50 }, (_, i) => [`k${i}`, BigInt(i)]));
    await cat.createIndex('d', 't', idx('un', ['n'], true), false);
    await checkIndex(await current(), 'un');
  });

  it('fails a unique backfill on duplicates and removes the half-built index', async () => {
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 })), col('w', t('int'))]);
    const rows: Value[][] = Array.from({ length: 1500 }, (_, i) => [BigInt(i), `v${i}`, BigInt(i)]);
    rows.push([5000n, 'v5', 5n]); // duplicates a row of the first batch
    await insert(info, rows);
    const versionBefore = (await cat.latestSchema()).version;
    await expectSqlError(cat.createIndex('d', 't', idx('uv', ['v', 'w'], true), false), 1062, "Duplicate entry 'v5-5' for key 't.uv'");
    const after = await current();
    expect(after.indexes.map((ix) => ix.name)).toEqual(['PRIMARY']);
    expect((await cat.latestSchema()).version).toBeGreaterThan(versionBefore);
    expect(await countRange(indexPrefix(info.id, 2))).toBe(0);
    // The id is not reused by the next index.
    await cat.createIndex('d', 't', idx('uv', ['v']), false);
    expect((await current()).indexes.find((ix) => ix.name === 'uv')?.id).toBe(3);
  });

  it('detects duplicates within one batch, on prefixes', async () => {
    await create([col('a', t('int')), col('s', t('varchar', { length: 10 }))]);
    const info = await current();
    await insert(info, [[1n, 'abcdef'], [2n, 'xyz'], [3n, 'abcxyz']]);
    const prefixSpec = { name: 'us', columns: [{ name: 's', length: 3 }], unique: true, primary: false };
    await expectSqlError(cat.createIndex('d', 't', prefixSpec, false), 1062, "Duplicate entry 'abc' for key 't.us'");
    expect((await current()).indexes).toEqual([]);
  });

  it('stays consistent with writers maintaining the write-only index during the backfill', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await insert(info, Array.from({ length: 2100 }, (_, i) => [BigInt(i), `v${i % 5}`]));
    const writerDuringBackfill = writeWithIndex((txn, tbl, ix) => {
        expect(ix.state).toBe('writeOnly');
        const change = (id: bigint, before: Value[], after: Value[] | null): void => {
          const h = { kind: 'int', value: id } as const;
          txn.delete(indexEntry(tbl, ix, before, h).key);
          if (after === null) {
            txn.delete(recordKeyOf(tbl, h));
            return;
          }
          txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, after));
          const e = indexEntry(tbl, ix, after, h);
          txn.put(e.key, e.value);
        };
        change(10n, [10n, 'v0'], null); // already backfilled
        change(1500n, [1500n, 'v0'], [1500n, 'changed']); // not yet backfilled
        const e = indexEntry(tbl, ix, [5000n, 'new'], { kind: 'int', value: 5000n });
        txn.put(recordKeyOf(tbl, { kind: 'int', value: 5000n }), encodeRecordValue(tbl, [5000n, 'new']));
        txn.put(e.key, e.value);
    });
    const hooked = catalogWithWriter(writerDuringBackfill, 'after-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    expect(hooked.calls()).toBeGreaterThan(3);
    await checkIndex(await current(), 'iv');
  });

  it('re-runs a batch whose rows change between its scan and its commit (no stale entries)', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await insert(info, Array.from({ length: 1500 }, (_, i) => [BigInt(i), `v${i % 5}`]));
    const writerInsideBatch = writeWithIndex((txn, tbl, ix) => {
        const h = { kind: 'int', value: 500n } as const;
        txn.delete(indexEntry(tbl, ix, [500n, 'v0'], h).key);
        txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, [500n, 'moved']));
        const e = indexEntry(tbl, ix, [500n, 'moved'], h);
        txn.put(e.key, e.value);
        const h7 = { kind: 'int', value: 7n } as const;
        txn.delete(indexEntry(tbl, ix, [7n, 'v2'], h7).key);
        txn.delete(recordKeyOf(tbl, h7));
    });
    const hooked = catalogWithWriter(writerInsideBatch, 'before-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    expect(hooked.calls()).toBeGreaterThan(4); // txn 1, batch 1 (conflicted), batch 1 again, batch 2, public
    await checkIndex(await current(), 'iv');
  });

  it('re-runs a conflicted batch over its whole first range while the next batch runs (rows inserted into it meanwhile)', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    // Even ids 0..2998: the first batch (1,000 rows) ends at id 1998. Before it commits, a writer
    // inserts 600 odd ids below that and moves row 4, so the batch conflicts. Its retry must still
    // index every row up to 1998 although its range now holds 1,600, while the second batch,
    // started from the first attempt's end, covers the rest.
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await insert(info, Array.from({ length: 1500 }, (_, i) => [BigInt(2 * i), `v${i % 5}`]));
    const writerInsideBatch = writeWithIndex((txn, tbl, ix) => {
        for (let id = 1n; id < 1200n; id += 2n) {
          const h = { kind: 'int', value: id } as const;
          txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, [id, 'new']));
          const e = indexEntry(tbl, ix, [id, 'new'], h);
          txn.put(e.key, e.value);
        }
        const h4 = { kind: 'int', value: 4n } as const;
        txn.delete(indexEntry(tbl, ix, [4n, 'v2'], h4).key);
        txn.put(recordKeyOf(tbl, h4), encodeRecordValue(tbl, [4n, 'moved']));
        const e4 = indexEntry(tbl, ix, [4n, 'moved'], h4);
        txn.put(e4.key, e4.value);
    });
    const hooked = catalogWithWriter(writerInsideBatch, 'before-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    expect(hooked.calls()).toBeGreaterThan(4); // txn 1, batch 1 (conflicted), batch 2, batch 1 again, public
    const after = await current();
    await checkIndex(after, 'iv');
    expect(await countRange(indexPrefix(info.id, 2))).toBe(2100);
  });

  /**
   * A catalog whose sorted builds (sorted-backfill.ts: begin, then a branch per batch) run
   * `writer` before or after their first batch commits; `batches()` counts the sorted batches.
   */
  function catalogWithSortedWriter(writer: () => Promise<void>, at: 'before-commit' | 'after-commit'): { open: () => Promise<Catalog>; batches: () => number } {
    let batches = 0;
    const base = s.txns;
    const forward = <T extends object>(target: T, prop: string | symbol): unknown => {
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    };
    const hookBatch = (batch: Txn): Txn =>
      new Proxy(batch, {
        get: (target, prop) =>
          prop !== 'commit'
            ? forward(target, prop)
            : async () => {
                const first = ++batches === 1;
                if (first && at === 'before-commit') await writer();
                await target.commit();
                if (first && at === 'after-commit') await writer();
              },
      });
    const begin = async (): Promise<Txn> => {
      const txn = await base.begin();
      return new Proxy(txn, { get: (target, prop) => (prop === 'branch' ? () => hookBatch(target.branch()) : forward(target, prop)) });
    };
    const hooked: typeof base = { kv: base.kv, begin, view: (fn) => base.view(fn), update: (fn, retries) => base.update(fn, retries) };
    return { open: () => Catalog.open(hooked), batches: () => batches };
  }

  /** Ids 0..2299 with v = id % 1000 (INT): in key order the first batch of 1,000 holds v 0..349. */
  async function intRows(): Promise<TableInfo> {
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))]);
    await insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), BigInt(i % 1000)]));
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
    const hooked = catalogWithSortedWriter(async () => undefined, 'after-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    expect(hooked.batches()).toBe(3);
    await checkIndex(await current(), 'iv');
  });

  it('takes the range batches over the row limit or for entry keys of several lengths', async () => {
    const info = await intRows();
    for (const limit of [500, 1000]) {
      backfillSettings.sortedMaxRows = limit; // 500: the handle span says too many; 1000: found out after 1,000 rows
      const hooked = catalogWithSortedWriter(async () => undefined, 'after-commit');
      await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
      expect(hooked.batches()).toBe(0);
      await checkIndex(await current(), 'iv');
      await cat.dropIndex('d', 't', 'iv', false);
    }
    backfillSettings.sortedMaxRows = SORTED_BACKFILL_MAX_ROWS;
    await cat.dropTable('d', 't', false);
    const strings = await create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await insert(strings, Array.from({ length: 1500 }, (_, i) => [BigInt(i), 'x'.repeat(1 + (i % 9))]));
    const hooked = catalogWithSortedWriter(async () => undefined, 'after-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    expect(hooked.batches()).toBe(0);
    await checkIndex(await current(), 'iv');
  });

  it('reports while it reads the table, so a stop (KILL QUERY) ends it before anything is written', async () => {
    const info = await intRows();
    backfillSettings.batchSize = 10; // 230 pages to read: reports after every 16th
    const seen: Array<[number, number]> = [];
    const stop = (st: { rowsDone: number; rowsTotal: number }): void => {
      seen.push([st.rowsDone, st.rowsTotal]);
      if (seen.length === 2) throw new Error('stopped');
    };
    await expect(cat.createIndex('d', 't', idx('iv', ['v']), false, stop)).rejects.toThrow('stopped');
    expect(seen).toEqual([[0, 2300], [0, 2300]]);
    expect((await current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY']);
    expect(await countRange(indexPrefix(info.id, 2))).toBe(0);
  });

  it('goes over the table in range batches once a write after its snapshot meets a sorted batch', async () => {
    await intRows();
    const writer = writeWithIndex((txn, tbl, ix) => {
      expect(ix.state).toBe('writeOnly');
      moveRow(txn, tbl, ix, 0n, 0n, 999n); // its old entry is in the first batch: that batch conflicts
      moveRow(txn, tbl, ix, 1500n, 500n, null);
      const h = { kind: 'int', value: 5000n } as const;
      txn.put(recordKeyOf(tbl, h), encodeRecordValue(tbl, [5000n, 1n]));
      const e = indexEntry(tbl, ix, [5000n, 1n], h);
      txn.put(e.key, e.value);
    });
    const hooked = catalogWithSortedWriter(writer, 'before-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    await checkIndex(await current(), 'iv');
  });

  it('keeps the batches already committed when a later one conflicts (writers maintain those)', async () => {
    const info = await intRows();
    const writer = writeWithIndex((txn, tbl, ix) => {
      moveRow(txn, tbl, ix, 1000n, 0n, 7n); // already written by the first batch
      moveRow(txn, tbl, ix, 1900n, 900n, 5n); // not yet written: the last batch conflicts
    });
    const hooked = catalogWithSortedWriter(writer, 'after-commit');
    await (await hooked.open()).createIndex('d', 't', idx('iv', ['v']), false);
    await checkIndex(await current(), 'iv');
    expect(await countRange(indexPrefix(info.id, 2))).toBe(2300);
  });

  it('validates CREATE INDEX', async () => {
    await create([col('id', t('int'), { primaryKey: true }), col('v', t('int')), col('tx', t('text'))], [key(['v'], { name: 'k' })]);
    await expectSqlError(cat.createIndex('d', 't', idx('K', ['id']), false), 1061, "Duplicate key name 'K'");
    await cat.createIndex('d', 't', idx('K', ['id']), true);
    await expectSqlError(cat.createIndex('d', 't', idx('k2', ['nope']), false), 1072, "Key column 'nope' doesn't exist in table");
    await expectSqlError(
      cat.createIndex('d', 't', idx('k3', ['tx']), false),
      1170,
      "BLOB/TEXT column 'tx' used in key specification without a key length",
    );
    await expectSqlError(cat.createIndex('d', 't', { ...idx('p', ['v']), primary: true }, false), 1068, 'Multiple primary key defined');
    await expectSqlError(cat.createIndex('d', 'nope', idx('x', ['v']), false), 1146, "Table 'd.nope' doesn't exist");
    await expectSqlError(cat.dropIndex('d', 'nope', 'x', false), 1146, "Table 'd.nope' doesn't exist");
    await cat.createIndex('d', 't', { name: 'ptx', columns: [{ name: 'tx', length: 4 }], unique: false, primary: false }, false);
    expect((await current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY', 'k', 'ptx']);
  });

  it('drops an index and its entries', async () => {
    const info = await create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))], [key(['v'], { name: 'iv' })]);
    await cat.createIndex('d', 't', idx('iv2', ['v']), false);
    await insert(info, [[1n, 1n]]);
    await s.txns.update(async (txn) => {
      const cur = await cat.schemaFor(txn);
      const tbl = cur.table('d', 't');
      const ix = tbl?.indexes.find((i) => i.name === 'iv');
      if (tbl === undefined || ix === undefined) throw new Error('missing');
      const e = indexEntry(tbl, ix, [1n, 1n], { kind: 'int', value: 1n });
      txn.put(e.key, e.value);
    });
    const ivId = info.indexes.find((ix) => ix.name === 'iv')?.id ?? -1;
    expect(await countRange(indexPrefix(info.id, ivId))).toBe(1);
    await cat.dropIndex('d', 't', 'IV', false);
    expect((await current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY', 'iv2']);
    expect(await countRange(indexPrefix(info.id, ivId))).toBe(0);
    await expectSqlError(cat.dropIndex('d', 't', 'iv', false), 1091, "Can't DROP 'iv'; check that column/key exists");
    await cat.dropIndex('d', 't', 'iv', true);
    await expectSqlError(cat.dropIndex('d', 't', 'PRIMARY', false), 1235, "This version of MySQL doesn't yet support 'DROP PRIMARY KEY'");
  });

  it('refuses to drop the only key of the AUTO_INCREMENT column', async () => {
    await create([col('a', t('int'), { autoIncrement: true }), col('b', t('int'))], [key(['a'], { name: 'ka' })]);
    await expectSqlError(
      cat.dropIndex('d', 't', 'ka', false),
      1075,
      'Incorrect table definition; there can be only one auto column and it must be defined as a key',
    );
  });
});
