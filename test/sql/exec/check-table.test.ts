/**
 * ADMIN CHECK TABLE against data corrupted on purpose: raw KV mutations written through the txn
 * layer (the same keys the writers use, built with catalog's indexEntry / encodeRecordValue)
 * delete an index entry, add a dangling one, change a row without its index, point a unique
 * entry at another row, break a record; each must be reported precisely (8134, naming the
 * table, index, handle and both sides' values). Runs on every KV backend.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, encodeRecordValue, findIndex, indexEntry, recordKeyOf, type TableInfo } from '../../../src/catalog/index.js';
import { encodeKeyValues, type Handle } from '../../../src/codec/index.js';
import { openStore } from '../../../src/kv/index.js';
import type { Store } from '../../../src/kv/kv.js';
import { createEngine, type ClosableEngine, type Session } from '../../../src/sql/session/index.js';
import { createTxnStore, type TxnStore } from '../../../src/txn/index.js';
import { type ColumnType, type Value } from '../../../src/types/index.js';
import { backends, removeDir, storeUrl, tempDir } from '../../helpers/node.js';

const ROWS = "(1, 10, 'a', 100), (2, 20, 'b', 200), (3, 30, 'c', NULL), (4, 30, NULL, 400)";

for (const backend of backends()) {
  describe(`ADMIN CHECK TABLE finds corruption (${backend})`, () => {
    const dir = tempDir('check-table');
    let kv: Store;
    let txns: TxnStore;
    let engine: ClosableEngine;
    let s: Session;

    beforeAll(async () => {
      kv = await openStore(storeUrl(backend, dir));
      txns = createTxnStore(kv);
      engine = await createEngine(txns, { logger: pino({ level: 'silent' }) });
      s = await engine.openSession({ connectionId: 1, user: 'root', host: '127.0.0.1', collationId: 45, foundRows: false });
      await s.query('CREATE DATABASE ck');
      await s.query('USE ck');
    });

    afterAll(async () => {
      await s?.close();
      await engine?.close();
      await kv?.close();
      removeDir(dir);
    });

    /** A fresh consistent table `name` (int handle) that ADMIN CHECK TABLE accepts. */
    async function intTable(name: string): Promise<TableInfo> {
      await s.query(`CREATE TABLE ${name} (id INT PRIMARY KEY, a INT, b VARCHAR(10) COLLATE utf8mb4_bin, u INT, KEY k_a (a), KEY k_ab (a, b), UNIQUE KEY u_u (u))`);
      await s.query(`INSERT INTO ${name} VALUES ${ROWS}`);
      await s.query(`ADMIN CHECK TABLE ${name}`);
      return tableInfo(name);
    }

    async function tableInfo(name: string): Promise<TableInfo> {
      const table = (await (await Catalog.open(txns)).latestSchema()).table('ck', name);
      if (table === undefined) throw new Error(`no table ${name}`);
      return table;
    }

    function entry(table: TableInfo, index: string, row: Value[], handle: Handle): { key: Uint8Array; value: Uint8Array } {
      const ix = findIndex(table, index);
      if (ix === undefined) throw new Error(`no index ${index}`);
      return indexEntry(table, ix, row, handle);
    }

    const int = (n: number): Handle => ({ kind: 'int', value: BigInt(n) });

    async function checkError(sql: string): Promise<{ errno: number; message: string }> {
      try {
        await s.query(sql);
      } catch (err) {
        const e = err as { errno?: number; message?: string };
        return { errno: e.errno ?? -1, message: e.message ?? '' };
      }
      throw new Error(`${sql} succeeded`);
    }

    it('reports a row whose index entry was deleted', async () => {
      const t = await intTable('t_missing');
      await txns.update(async (txn) => txn.delete(entry(t, 'k_a', [2n, 20n, 'b', 200n], int(2)).key));
      const err = await checkError('ADMIN CHECK TABLE t_missing');
      expect(err.errno).toBe(8134);
      expect(err.message).toBe(
        'data inconsistency in table: ck.t_missing, index: k_a, handle: 2, index-values:<no entry> != record-values:(a=20); 1 inconsistency in all',
      );
    });

    it('reports a dangling index entry', async () => {
      const t = await intTable('t_dangling');
      const e = entry(t, 'k_ab', [99n, 5n, 'zz', null], int(99));
      await txns.update(async (txn) => txn.put(e.key, e.value));
      const err = await checkError('ADMIN CHECK TABLE t_dangling');
      expect(err.errno).toBe(8134);
      expect(err.message).toBe(
        "data inconsistency in table: ck.t_dangling, index: k_ab, handle: 99, index-values:(a=5, b='zz') != record-values:<no row>; 1 inconsistency in all",
      );
    });

    it('reports a row changed without its index entries', async () => {
      const t = await intTable('t_stale');
      await txns.update(async (txn) => txn.put(recordKeyOf(t, int(3)), encodeRecordValue(t, [3n, 31n, 'c', null])));
      const err = await checkError('ADMIN CHECK TABLE t_stale');
      expect(err.errno).toBe(8134);
      expect(err.message).toBe(
        'data inconsistency in table: ck.t_stale, ' +
          'index: k_a, handle: 3, index-values:(a=30) != record-values:(a=31); ' +
          "index: k_ab, handle: 3, index-values:(a=30, b='c') != record-values:(a=31, b='c'); 2 inconsistencies in all",
      );
    });

    it('reports a unique entry that points to another row', async () => {
      const t = await intTable('t_owner');
      const e = entry(t, 'u_u', [7n, null, null, 100n], int(7));
      await txns.update(async (txn) => txn.put(e.key, e.value));
      const err = await checkError('ADMIN CHECK TABLE t_owner');
      expect(err.errno).toBe(8134);
      expect(err.message).toBe(
        'data inconsistency in table: ck.t_owner, ' +
          'index: u_u, handle: 1, index-values:(u=100) of handle 7 != record-values:(u=100); ' +
          'index: u_u, handle: 7, index-values:(u=100) != record-values:<no row>; 2 inconsistencies in all',
      );
    });

    it('reports a record that does not decode', async () => {
      const t = await intTable('t_garbage');
      await txns.update(async (txn) => txn.put(recordKeyOf(t, int(4)), new Uint8Array([0x80, 0xff, 0x01])));
      const err = await checkError('ADMIN CHECK TABLE t_garbage');
      expect(err.errno).toBe(8134);
      expect(err.message).toMatch(/^data inconsistency in table: ck\.t_garbage, index: \(record\), record of handle 4 cannot be decoded: .+; 1 inconsistency in all$/);
    });

    it('names common handles by their primary key values', async () => {
      await s.query('CREATE TABLE t_common (name VARCHAR(10) COLLATE utf8mb4_bin, part INT, v INT, PRIMARY KEY (name, part), KEY k_v (v))');
      await s.query("INSERT INTO t_common VALUES ('ann', 1, 5), ('bob', 2, 6)");
      await s.query('ADMIN CHECK TABLE t_common');
      const t = await tableInfo('t_common');
      const types: ColumnType[] = [t.columns[0]?.type, t.columns[1]?.type].filter((c): c is ColumnType => c !== undefined);
      const bob: Handle = { kind: 'common', encoded: encodeKeyValues(['bob', 2n], types) };
      await txns.update(async (txn) => txn.delete(entry(t, 'k_v', ['bob', 2n, 6n], bob).key));
      const err = await checkError('ADMIN CHECK TABLE t_common');
      expect(err.message).toBe(
        "data inconsistency in table: ck.t_common, index: k_v, handle: (name='bob', part=2), index-values:<no entry> != record-values:(v=6); 1 inconsistency in all",
      );
    });

    it('shows the first three of many and checks every listed table', async () => {
      const t = await intTable('t_many');
      await intTable('t_fine');
      await txns.update(async (txn) => {
        for (const [id, a] of [[1, 10], [2, 20], [3, 30], [4, 30]] as const) txn.delete(entry(t, 'k_a', [BigInt(id), BigInt(a), null, null], int(id)).key);
      });
      const err = await checkError('ADMIN CHECK TABLE t_fine, t_many');
      expect(err.message).toMatch(/^data inconsistency in table: ck\.t_many, index: k_a, handle: 1, .*; 4 inconsistencies in all \(first 3 shown\)$/);
      expect(err.message.split('index: k_a,').length).toBe(4);
      await s.query('ADMIN CHECK TABLE t_fine');
    });

    it('passes again once the damage is repaired', async () => {
      const t = await tableInfo('t_missing');
      const e = entry(t, 'k_a', [2n, 20n, 'b', 200n], int(2));
      await txns.update(async (txn) => txn.put(e.key, e.value));
      await s.query('ADMIN CHECK TABLE t_missing');
    });
  });
}
