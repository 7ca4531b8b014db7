import { describe, expect, it } from 'vitest';
import { Catalog, encodeRecordValue, indexEntry, recordKeyOf, type IndexInfo, type TableInfo } from '../../src/catalog/index.js';
import type { Txn } from '../../src/txn/index.js';
import { indexPrefix } from '../../src/codec/index.js';
import type { Value } from '../../src/types/index.js';
import { backfillSettings } from '../../src/catalog/backfill.js';
import { col, expectSqlError, key, storeFactories, t } from './helpers.js';
import { indexBuildFixture } from './index-build-fixture.js';

const factories = await storeFactories();

describe.each(factories)('CREATE / DROP INDEX ($name)', (factory) => {
  const fx = indexBuildFixture(factory);

  /**
   * A catalog whose second transaction (the first backfill batch) runs `writer` before its own
   * commit or after it; `calls()` counts the transactions it ran.
   */
  function catalogWithWriter(writer: () => Promise<void>, at: 'before-commit' | 'after-commit'): { open: () => Promise<Catalog>; calls: () => number } {
    let calls = 0;
    const base = fx.s.txns;
    const hooked: typeof base = {
      kv: base.kv,
      begin: () => base.begin(),
      view: (fn) => base.view(fn),
      update: async <T>(fn: Parameters<typeof fx.s.txns.update<T>>[0], retries?: number): Promise<T> => {
        if (at === 'after-commit') {
          const result = await fx.s.txns.update(fn, retries);
          if (++calls === 2) await writer();
          return result;
        }
        return fx.s.txns.update(async (txn) => {
          const result = await fn(txn);
          if (++calls === 2) await writer();
          return result;
        }, retries);
      },
    };
    return { open: () => Catalog.open(hooked), calls: () => calls };
  }

  it('backfills a non-unique index over several batches (int handle)', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await fx.insert(info, Array.from({ length: 2300 }, (_, i) => [BigInt(i), `v${i % 7}`]));
    await fx.cat.createIndex('d', 't', fx.idx('iv', ['v']), false);
    const after = await fx.current();
    expect(after.indexes.map((ix) => [ix.name, ix.id])).toEqual([['PRIMARY', 1], ['iv', 2]]);
    expect(after.maxIndexId).toBe(2);
    await fx.checkIndex(after, 'iv');
  });

  it('backfills a unique index with NULLs (hidden row id) and a common-handle table', async () => {
    const hidden = await fx.create([col('a', t('int')), col('b', t('int'))]);
    await fx.insert(hidden, [[1n, null], [2n, null], [3n, 3n]]);
    await fx.cat.createIndex('d', 't', fx.idx('ub', ['b'], true), false);
    await fx.checkIndex(await fx.current(), 'ub');
    await fx.cat.dropTable('d', 't', false);

    const common = await fx.create([col('k', t('varchar', { length: 10 })), col('n', t('int'))], [key(['k', 'n'], { primary: true })]);
    await fx.insert(common, Array.from({ length: 50 }, (_, i) => [`k${i}`, BigInt(i)]));
    await fx.cat.createIndex('d', 't', fx.idx('un', ['n'], true), false);
    await fx.checkIndex(await fx.current(), 'un');
  });

  it('fails a unique backfill on duplicates and removes the half-built index', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 })), col('w', t('int'))]);
    const rows: Value[][] = Array.from({ length: 1500 }, (_, i) => [BigInt(i), `v${i}`, BigInt(i)]);
    rows.push([5000n, 'v5', 5n]); // duplicates a row of the first batch
    await fx.insert(info, rows);
    const versionBefore = (await fx.cat.latestSchema()).version;
    await expectSqlError(fx.cat.createIndex('d', 't', fx.idx('uv', ['v', 'w'], true), false), 1062, "Duplicate entry 'v5-5' for key 't.uv'");
    const after = await fx.current();
    expect(after.indexes.map((ix) => ix.name)).toEqual(['PRIMARY']);
    expect((await fx.cat.latestSchema()).version).toBeGreaterThan(versionBefore);
    expect(await fx.countRange(indexPrefix(info.id, 2))).toBe(0);
    // The id is not reused by the next index.
    await fx.cat.createIndex('d', 't', fx.idx('uv', ['v']), false);
    expect((await fx.current()).indexes.find((ix) => ix.name === 'uv')?.id).toBe(3);
  });

  it('detects duplicates within one batch, on prefixes', async () => {
    await fx.create([col('a', t('int')), col('s', t('varchar', { length: 10 }))]);
    const info = await fx.current();
    await fx.insert(info, [[1n, 'abcdef'], [2n, 'xyz'], [3n, 'abcxyz']]);
    const prefixSpec = { name: 'us', columns: [{ name: 's', length: 3 }], unique: true, primary: false };
    await expectSqlError(fx.cat.createIndex('d', 't', prefixSpec, false), 1062, "Duplicate entry 'abc' for key 't.us'");
    expect((await fx.current()).indexes).toEqual([]);
  });

  it('stays consistent with writers maintaining the write-only index during the backfill', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await fx.insert(info, Array.from({ length: 2100 }, (_, i) => [BigInt(i), `v${i % 5}`]));
    const writerDuringBackfill = fx.writeWithIndex((txn, tbl, ix) => {
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
    await (await hooked.open()).createIndex('d', 't', fx.idx('iv', ['v']), false);
    expect(hooked.calls()).toBeGreaterThan(3);
    await fx.checkIndex(await fx.current(), 'iv');
  });

  it('re-runs a batch whose rows change between its scan and its commit (no stale entries)', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await fx.insert(info, Array.from({ length: 1500 }, (_, i) => [BigInt(i), `v${i % 5}`]));
    const writerInsideBatch = fx.writeWithIndex((txn, tbl, ix) => {
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
    await (await hooked.open()).createIndex('d', 't', fx.idx('iv', ['v']), false);
    expect(hooked.calls()).toBeGreaterThan(4); // txn 1, batch 1 (conflicted), batch 1 again, batch 2, public
    await fx.checkIndex(await fx.current(), 'iv');
  });

  it('re-runs a conflicted batch over its whole first range while the next batch runs (rows inserted into it meanwhile)', async () => {
    backfillSettings.sortedMaxRows = 0; // the range batches
    // Even ids 0..2998: the first batch (1,000 rows) ends at id 1998. Before it commits, a writer
    // inserts 600 odd ids below that and moves row 4, so the batch conflicts. Its retry must still
    // index every row up to 1998 although its range now holds 1,600, while the second batch,
    // started from the first attempt's end, covers the rest.
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('varchar', { length: 10 }))]);
    await fx.insert(info, Array.from({ length: 1500 }, (_, i) => [BigInt(2 * i), `v${i % 5}`]));
    const writerInsideBatch = fx.writeWithIndex((txn, tbl, ix) => {
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
    await (await hooked.open()).createIndex('d', 't', fx.idx('iv', ['v']), false);
    expect(hooked.calls()).toBeGreaterThan(4); // txn 1, batch 1 (conflicted), batch 2, batch 1 again, public
    const after = await fx.current();
    await fx.checkIndex(after, 'iv');
    expect(await fx.countRange(indexPrefix(info.id, 2))).toBe(2100);
  });

  it('validates CREATE INDEX', async () => {
    await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int')), col('tx', t('text'))], [key(['v'], { name: 'k' })]);
    await expectSqlError(fx.cat.createIndex('d', 't', fx.idx('K', ['id']), false), 1061, "Duplicate key name 'K'");
    await fx.cat.createIndex('d', 't', fx.idx('K', ['id']), true);
    await expectSqlError(fx.cat.createIndex('d', 't', fx.idx('k2', ['nope']), false), 1072, "Key column 'nope' doesn't exist in table");
    await expectSqlError(
      fx.cat.createIndex('d', 't', fx.idx('k3', ['tx']), false),
      1170,
      "BLOB/TEXT column 'tx' used in key specification without a key length",
    );
    await expectSqlError(fx.cat.createIndex('d', 't', { ...fx.idx('p', ['v']), primary: true }, false), 1068, 'Multiple primary key defined');
    await expectSqlError(fx.cat.createIndex('d', 'nope', fx.idx('x', ['v']), false), 1146, "Table 'd.nope' doesn't exist");
    await expectSqlError(fx.cat.dropIndex('d', 'nope', 'x', false), 1146, "Table 'd.nope' doesn't exist");
    await fx.cat.createIndex('d', 't', { name: 'ptx', columns: [{ name: 'tx', length: 4 }], unique: false, primary: false }, false);
    expect((await fx.current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY', 'k', 'ptx']);
  });

  it('drops an index and its entries', async () => {
    const info = await fx.create([col('id', t('int'), { primaryKey: true }), col('v', t('int'))], [key(['v'], { name: 'iv' })]);
    await fx.cat.createIndex('d', 't', fx.idx('iv2', ['v']), false);
    await fx.insert(info, [[1n, 1n]]);
    await fx.s.txns.update(async (txn) => {
      const cur = await fx.cat.schemaFor(txn);
      const tbl = cur.table('d', 't');
      const ix = tbl?.indexes.find((i) => i.name === 'iv');
      if (tbl === undefined || ix === undefined) throw new Error('missing');
      const e = indexEntry(tbl, ix, [1n, 1n], { kind: 'int', value: 1n });
      txn.put(e.key, e.value);
    });
    const ivId = info.indexes.find((ix) => ix.name === 'iv')?.id ?? -1;
    expect(await fx.countRange(indexPrefix(info.id, ivId))).toBe(1);
    await fx.cat.dropIndex('d', 't', 'IV', false);
    expect((await fx.current()).indexes.map((ix) => ix.name)).toEqual(['PRIMARY', 'iv2']);
    expect(await fx.countRange(indexPrefix(info.id, ivId))).toBe(0);
    await expectSqlError(fx.cat.dropIndex('d', 't', 'iv', false), 1091, "Can't DROP 'iv'; check that column/key exists");
    await fx.cat.dropIndex('d', 't', 'iv', true);
    await expectSqlError(fx.cat.dropIndex('d', 't', 'PRIMARY', false), 1235, "This version of MySQL doesn't yet support 'DROP PRIMARY KEY'");
  });

  it('refuses to drop the only key of the AUTO_INCREMENT column', async () => {
    await fx.create([col('a', t('int'), { autoIncrement: true }), col('b', t('int'))], [key(['a'], { name: 'ka' })]);
    await expectSqlError(
      fx.cat.dropIndex('d', 't', 'ka', false),
      1075,
      'Incorrect table definition; there can be only one auto column and it must be defined as a key',
    );
  });
});
