/** Spec builders and store factories shared by the catalog tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ColumnSpec, IndexSpec, TableSpec } from '../../src/catalog/index.js';
import { openStore, type Store } from '../../src/kv/index.js';
import { createTxnStore, type TxnStore } from '../../src/txn/index.js';
import { type ColumnType, makeType, type TypeKind } from '../../src/types/index.js';
import { MemStore, memTxnStore } from './fake-store.js';

export function t(kind: TypeKind, opts: Partial<Omit<ColumnType, 'kind'>> = {}): ColumnType {
  return makeType(kind, opts);
}

export function col(name: string, type: ColumnType, extra: Partial<ColumnSpec> = {}): ColumnSpec {
  return {
    name,
    type,
    notNull: false,
    default: { kind: 'none' },
    autoIncrement: false,
    onUpdateNow: false,
    comment: '',
    primaryKey: false,
    unique: false,
    ...extra,
  };
}

export function key(columns: string[], extra: Partial<IndexSpec> = {}): IndexSpec {
  return { columns: columns.map((name) => ({ name })), unique: false, primary: false, ...extra };
}

export function spec(name: string, columns: ColumnSpec[], indexes: IndexSpec[] = [], extra: Partial<TableSpec> = {}): TableSpec {
  return { name, columns, indexes, foreignKeys: [], comment: '', ...extra };
}

export interface TestStore {
  readonly txns: TxnStore;
  readonly kv: Store;
  close(): Promise<void>;
}

export interface StoreFactory {
  readonly name: string;
  make(): Promise<TestStore>;
}

const memFactory: StoreFactory = {
  name: 'mem',
  async make() {
    const kv = new MemStore();
    return { kv, txns: memTxnStore(kv), close: async () => undefined };
  },
};

const lmdbFactory: StoreFactory = {
  name: 'lmdb',
  async make() {
    const dir = mkdtempSync(join(tmpdir(), 'shale-catalog-'));
    const kv = await openStore(dir);
    return {
      kv,
      txns: createTxnStore(kv),
      close: async () => {
        await kv.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** The in-memory fake (test/catalog/fake-store.ts) and the real LMDB-backed store. */
export async function storeFactories(): Promise<StoreFactory[]> {
  return [memFactory, lmdbFactory];
}

/** Expects `p` to reject with a SqlError with this errno and message. */
export async function expectSqlError(p: Promise<unknown>, errno: number, message: string): Promise<void> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  if (!(caught instanceof Error)) throw new Error(`expected error ${errno}, got success`);
  const e = caught as Error & { errno?: number };
  if (e.errno !== errno || e.message !== message) {
    throw new Error(`expected ${errno} "${message}", got ${String(e.errno)} "${e.message}"`);
  }
}
