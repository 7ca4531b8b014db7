/**
 * A statement that starts a transaction on a store whose snapshots cost a round trip (etcd) hands
 * the keys it will read first to Store.snapshotWith (exec/prefetch-keys.ts). Here the store is the
 * embedded one behind a wrapper that, like etcd's, cannot snapshot synchronously and records what
 * it is asked for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/catalog/index.js';
import { recordKey } from '../../../src/codec/index.js';
import { openStore, type CommitRequest, type KeyRange, type Snapshot, type Store } from '../../../src/kv/index.js';
import { createEngine, type ClosableEngine, type Session } from '../../../src/sql/session/index.js';
import { createTxnStore } from '../../../src/txn/index.js';
import { textRows } from './session-helpers.js';

/** The inner store without snapshotNow; snapshotWith records its keys (as hex) and takes a plain snapshot. */
class RecordingStore implements Store {
  readonly asked: string[][] = [];
  plain = 0;
  constructor(private readonly inner: Store) {}
  get url(): string {
    return this.inner.url;
  }
  snapshot(): Promise<Snapshot> {
    this.plain++;
    return this.inner.snapshot();
  }
  snapshotWith(keys: readonly Uint8Array[]): Promise<Snapshot> {
    this.asked.push(keys.map((k) => Buffer.from(k).toString('hex')));
    return this.inner.snapshot();
  }
  commit(req: CommitRequest): Promise<bigint> {
    return this.inner.commit(req);
  }
  deleteRange(range: KeyRange): Promise<void> {
    return this.inner.deleteRange(range);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

let dir: string;
let store: RecordingStore;
let engine: ClosableEngine;
let s: Session;
let rowKey: (id: bigint) => string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shale-prefetch-'));
  store = new RecordingStore(await openStore(dir));
  const txns = createTxnStore(store);
  engine = await createEngine(txns, { logger: pino({ level: 'silent' }) });
  s = await engine.openSession({ connectionId: 1, user: 'root', host: '127.0.0.1', collationId: 45, foundRows: false });
  await s.query('CREATE DATABASE d');
  await s.query('USE d');
  await s.query('CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))');
  await s.query("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  const table = (await (await Catalog.open(txns)).latestSchema()).table('d', 't');
  if (table === undefined) throw new Error('no table d.t');
  rowKey = (id) => Buffer.from(recordKey(table.id, { kind: 'int', value: id })).toString('hex');
  store.asked.length = 0;
  store.plain = 0;
});

afterEach(async () => {
  await s.close();
  await engine.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('prefetch of a statement’s first keys', () => {
  it('asks for the row of an autocommit point select, UPDATE and DELETE, and still answers right', async () => {
    expect(textRows(await s.query('SELECT v FROM t WHERE id = 2'))).toEqual([['b']]);
    await s.query("UPDATE t SET v = 'z' WHERE id = 3");
    await s.query('DELETE FROM t WHERE id = 1');
    expect(store.asked).toEqual([[rowKey(2n)], [rowKey(3n)], [rowKey(1n)]]);
    expect(textRows(await s.query('SELECT id, v FROM t ORDER BY id'))).toEqual([['2', 'b'], ['3', 'z']]);
  });

  it('asks once per transaction, for its first statement, and not for an INSERT or a range', async () => {
    await s.query('BEGIN');
    expect(textRows(await s.query('SELECT v FROM t WHERE id = 1'))).toEqual([['a']]);
    expect(textRows(await s.query('SELECT v FROM t WHERE id = 2'))).toEqual([['b']]);
    await s.query('COMMIT');
    expect(store.asked).toEqual([[rowKey(1n)]]);
    await s.query("INSERT INTO t VALUES (4, 'd')");
    await s.query('SELECT v FROM t WHERE id > 1');
    expect(store.asked).toEqual([[rowKey(1n)]]);
    expect(store.plain).toBe(2);
  });
});
