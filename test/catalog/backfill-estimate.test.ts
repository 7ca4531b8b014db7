import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, encodeRecordValue, recordKeyOf, rowHandle, type BackfillStatus, type TableInfo } from '../../src/catalog/index.js';
import { BACKFILL_BATCH, backfillSettings } from '../../src/catalog/backfill.js';
import type { Value } from '../../src/types/index.js';
import { col, spec, storeFactories, t, type TestStore } from './helpers.js';

const factories = await storeFactories();

describe.each(factories)('CREATE INDEX progress totals ($name)', (factory) => {
  let s: TestStore;
  let cat: Catalog;

  beforeEach(async () => {
    s = await factory.make();
    cat = await Catalog.open(s.txns);
    await cat.createDatabase('d', { ifNotExists: false });
    backfillSettings.batchSize = 100;
  });
  afterEach(async () => {
    backfillSettings.batchSize = BACKFILL_BATCH;
    await s.close();
  });

  async function tableWith(primary: 'int' | 'varchar' | 'none', rows: Value[][]): Promise<TableInfo> {
    const idType = primary === 'varchar' ? t('varchar', { length: 20 }) : t('bigint');
    const info = await cat.createTable('d', spec('t', [col('id', idType, { notNull: true, primaryKey: primary !== 'none' }), col('v', t('int'))]), false);
    if (info === null) throw new Error('not created');
    let rowId = info.handleKind === 'int' && !info.pkIsHandle ? await cat.allocAutoId(info, rows.length) : 0n;
    await s.txns.update(async (txn) => {
      for (const row of rows) txn.put(recordKeyOf(info, rowHandle(info, row, rowId++)), encodeRecordValue(info, row));
    });
    return info;
  }

  async function progressOf(): Promise<BackfillStatus[]> {
    const seen: BackfillStatus[] = [];
    await cat.createIndex('d', 't', { name: 'k', columns: [{ name: 'v' }], unique: false, primary: false }, false, (st) => seen.push(st));
    return seen;
  }

  it('dense integer handles: the exact total from the first report on', async () => {
    await tableWith('int', Array.from({ length: 450 }, (_, i) => [BigInt(i + 1), BigInt(i % 7)]));
    const seen = await progressOf();
    expect(seen.map((x) => [x.rowsDone, x.rowsTotal])).toEqual([[0, 450], [100, 450], [200, 450], [300, 450], [400, 450], [450, 450]]);
  });

  it('sparse integer handles: extrapolated from the span covered, exact at the end', async () => {
    // 200 rows: ids 1..100, then 100 ids spread up to 100000.
    const ids = [...Array.from({ length: 100 }, (_, i) => i + 1), ...Array.from({ length: 100 }, (_, i) => 1000 * (i + 1))];
    await tableWith('int', ids.map((id) => [BigInt(id), 1n]));
    const seen = await progressOf();
    expect(seen[0]).toMatchObject({ rowsDone: 0, rowsTotal: 100000 });
    for (const st of seen) expect(st.rowsTotal).toBeGreaterThanOrEqual(st.rowsDone);
    expect(seen[seen.length - 1]).toMatchObject({ rowsDone: 200, rowsTotal: 200 });
  });

  it('common handles: counted once at the start', async () => {
    await tableWith('varchar', Array.from({ length: 250 }, (_, i) => [`k${i}`, 1n]));
    const seen = await progressOf();
    expect(seen.map((x) => x.rowsTotal)).toEqual([250, 250, 250, 250]);
  });

  it('hidden row ids (no primary key) use the id span', async () => {
    await tableWith('none', Array.from({ length: 150 }, (_, i) => [BigInt(i), 1n]));
    const seen = await progressOf();
    expect(seen.map((x) => [x.rowsDone, x.rowsTotal])).toEqual([[0, 150], [100, 150], [150, 150]]);
  });

  it('an empty table reports 0 of 0', async () => {
    await tableWith('int', []);
    expect((await progressOf()).map((x) => [x.rowsDone, x.rowsTotal])).toEqual([[0, 0], [0, 0]]);
  });
});
