/**
 * What the CREATE INDEX tests share (create-index.test.ts, backfill-order.test.ts): a fresh store
 * and catalog with database `d` per test, backfill batches of 1,000 rows, and helpers over one
 * table `t`: create it, insert rows, check an index against the rows.
 */
import { afterEach, beforeEach, expect } from 'vitest';
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
import { BACKFILL_BATCH, backfillSettings } from '../../src/catalog/backfill.js';
import { SORTED_BACKFILL_MAX_ROWS } from '../../src/catalog/sorted-backfill.js';
import { decodeRecordKey, indexPrefix, recordPrefix } from '../../src/codec/index.js';
import type { Txn } from '../../src/txn/index.js';
import type { Value } from '../../src/types/index.js';
import { bytesEqual, prefixEnd } from '../../src/util/index.js';
import { spec, type StoreFactory, type TestStore } from './helpers.js';

/** The store and catalog of the running test. */
interface State {
  s: TestStore;
  cat: Catalog;
}

export function indexBuildFixture(factory: StoreFactory) {
  const state = {} as State;
  beforeEach(async () => {
    state.s = await factory.make();
    state.cat = await Catalog.open(state.s.txns);
    await state.cat.createDatabase('d', { ifNotExists: false });
    backfillSettings.batchSize = 1000; // several batches for the multi-batch cases
  });
  afterEach(async () => {
    backfillSettings.batchSize = BACKFILL_BATCH;
    backfillSettings.sortedMaxRows = SORTED_BACKFILL_MAX_ROWS;
    await state.s.close();
  });

  const idx = (name: string, columns: string[], unique = false): IndexSpec & { name: string } => ({
    name,
    columns: columns.map((c) => ({ name: c })),
    unique,
    primary: false,
  });

  async function create(cols: Parameters<typeof spec>[1], indexes: Parameters<typeof spec>[2] = []): Promise<TableInfo> {
    const info = await state.cat.createTable('d', spec('t', cols, indexes), false);
    if (info === null) throw new Error('not created');
    return info;
  }

  async function current(): Promise<TableInfo> {
    const info = (await state.cat.latestSchema()).table('d', 't');
    if (info === undefined) throw new Error('no table');
    return info;
  }

  async function insert(info: TableInfo, rows: Value[][]): Promise<void> {
    let rowId = info.handleKind === 'int' && !info.pkIsHandle ? await state.cat.allocAutoId(info, rows.length) : 0n;
    for (let i = 0; i < rows.length; i += 500) {
      await state.s.txns.update(async (txn) => {
        for (const row of rows.slice(i, i + 500)) {
          const handle = rowHandle(info, row, rowId++);
          txn.put(recordKeyOf(info, handle), encodeRecordValue(info, row));
        }
      });
    }
  }

  async function countRange(prefix: Uint8Array): Promise<number> {
    return state.s.txns.view(async (txn) => (await txn.scan({ start: prefix, end: prefixEnd(prefix) }, { limit: 1_000_000 })).length);
  }


  /** A writer's transaction on t while index iv is built: it sees iv (writeOnly) and maintains it, as every writer does. */
  function writeWithIndex(body: (txn: Txn, tbl: TableInfo, ix: IndexInfo) => void): () => Promise<void> {
    return () =>
      state.s.txns.update(async (txn) => {
        const tbl = (await state.cat.schemaFor(txn)).table('d', 't');
        const ix = tbl?.indexes.find((i) => i.name === 'iv');
        if (tbl === undefined || ix === undefined) throw new Error('index not visible to writers');
        txn.lockKeys([state.cat.tableDefKey(tbl)]);
        body(txn, tbl, ix);
      });
  }

  /** Every row has its entry with the right value, and there is nothing else in the index. */
  async function checkIndex(info: TableInfo, name: string): Promise<void> {
    const index = info.indexes.find((ix) => ix.name === name);
    if (index === undefined) throw new Error(`no index ${name}`);
    expect(index.state).toBe('public');
    await state.s.txns.view(async (txn) => {
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


  return {
    get s(): TestStore {
      return state.s;
    },
    get cat(): Catalog {
      return state.cat;
    },
    idx,
    create,
    current,
    insert,
    countRange,
    writeWithIndex,
    checkIndex,
  };
}
