/**
 * A CREATE INDEX whose process died mid-backfill leaves the index 'writeOnly' with part of its
 * entries (simulated here by writing that state directly). Running the same CREATE INDEX again
 * finishes it (complete entries, public); another definition under that name is 1061; DROP
 * INDEX removes it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, encodeRecordValue, indexEntry, recordKeyOf, type IndexInfo, type TableInfo } from '../../src/catalog/index.js';
import { bumpSchemaVersion, readTable, writeTable } from '../../src/catalog/meta-store.js';
import { indexPrefix } from '../../src/codec/index.js';
import { prefixEnd } from '../../src/util/index.js';
import { col, expectSqlError, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();
const ROWS = 50;

describe.each(factories)('CREATE INDEX resumes a half-built index ($name)', (factory) => {
  let s: TestStore;
  let cat: Catalog;

  beforeEach(async () => {
    s = await factory.make();
    cat = await Catalog.open(s.txns);
    await cat.createDatabase('d', { ifNotExists: false });
    const info = await cat.createTable('d', spec('t', [col('id', t('int'), { primaryKey: true }), col('a', t('int'))]), false);
    if (info === null) throw new Error('not created');
    await s.txns.update(async (txn) => {
      for (let i = 0; i < ROWS; i++) txn.put(recordKeyOf(info, { kind: 'int', value: BigInt(i) }), encodeRecordValue(info, [BigInt(i), BigInt(i % 7)]));
    });
    // What a process killed mid-backfill leaves: the index writeOnly, the first 10 rows indexed.
    const index: IndexInfo = { id: info.maxIndexId + 1, name: 'k_a', columns: [{ offset: 1, name: 'a' }], unique: false, primary: false, state: 'writeOnly' };
    await s.txns.update(async (txn) => {
      const current = (await readTable(txn, 'd', 't')) as TableInfo;
      const half: TableInfo = { ...current, indexes: [...current.indexes, index], maxIndexId: index.id, revision: current.revision + 1 };
      writeTable(txn, half);
      await bumpSchemaVersion(txn);
      for (let i = 0; i < 10; i++) {
        const e = indexEntry(half, index, [BigInt(i), BigInt(i % 7)], { kind: 'int', value: BigInt(i) });
        txn.put(e.key, e.value);
      }
    });
  });
  afterEach(async () => {
    await s.close();
  });

  async function table(): Promise<TableInfo> {
    const info = (await cat.latestSchema()).table('d', 't');
    if (info === undefined) throw new Error('no table');
    return info;
  }

  async function entries(info: TableInfo, indexId: number): Promise<number> {
    const prefix = indexPrefix(info.id, indexId);
    return s.txns.view(async (txn) => (await txn.scan({ start: prefix, end: prefixEnd(prefix) }, { limit: 10_000 })).length);
  }

  it('finishes it when the same CREATE INDEX runs again', async () => {
    await cat.createIndex('d', 't', { name: 'k_a', columns: [{ name: 'a' }], unique: false, primary: false }, false);
    const info = await table();
    const index = info.indexes.find((ix) => ix.name === 'k_a');
    expect(index?.state).toBe('public');
    expect(await entries(info, index?.id ?? -1)).toBe(ROWS);
  });

  it('refuses another definition under the same name, and DROP INDEX removes it', async () => {
    await expectSqlError(cat.createIndex('d', 't', { name: 'k_a', columns: [{ name: 'id' }], unique: false, primary: false }, false), 1061, "Duplicate key name 'k_a'");
    await expectSqlError(cat.createIndex('d', 't', { name: 'K_A', columns: [{ name: 'a' }], unique: true, primary: false }, false), 1061, "Duplicate key name 'K_A'");
    const before = await table();
    await cat.dropIndex('d', 't', 'k_a', false);
    const after = await table();
    expect(after.indexes.some((ix) => ix.name === 'k_a')).toBe(false);
    expect(await entries(before, before.maxIndexId)).toBe(0);
  });
});
