/**
 * EmbeddedStore.commit runs a commit again when its LMDB write batch failed with one of lmdb-js
 * 3.5's free-list faults (storage-errors.ts, isRetryableWriteFailure); the batch was aborted as a
 * whole, so the retry is the only application and checks conflicts afresh. The fault cannot be
 * provoked on demand, so the store's write-batch entry point is wrapped to fail like lmdb-js does.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { utf8Encode } from '../../src/util/index.js';
import { readText, tempDir } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);
const MDB_BAD_VALSIZE = -30781;
const EIO = 5;

type BatchFn = (cb: () => unknown) => Promise<unknown>;
type BatchMethod = 'transaction';
interface Internals {
  readonly dbs: { readonly data: Record<BatchMethod, BatchFn> };
}

/** An error shaped like lmdb-js's rejection of a failed write batch. */
function batchFailure(code: number, message: string): Error {
  const cause = Object.assign(new Error(message), { code });
  return Object.assign(new Error('Commit failed (see commitError for details)'), { commitError: Promise.reject(cause) });
}

/**
 * Makes the store's next `failures` write batches fail (after running `before`, if given):
 * commits and range deletes both enter through `transaction`.
 */
function failBatches(store: EmbeddedStore, failures: number, err: () => Error, before?: () => Promise<unknown>, method: BatchMethod = 'transaction'): { calls: () => number } {
  const data = (store as unknown as Internals).dbs.data;
  const original = data[method].bind(data);
  let calls = 0;
  let left = failures;
  data[method] = async (cb) => {
    calls++;
    if (left === 0) return original(cb);
    left--;
    if (before !== undefined) await before();
    throw err();
  };
  return { calls: () => calls };
}

let dir = '';
afterEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});

function open(reports: string[]): EmbeddedStore {
  dir = tempDir('shale-retry-');
  return EmbeddedStore.open(dir, { gcIntervalMs: 0, onBackgroundError: (what, err) => reports.push(`${what}: ${String(err)}`) });
}

describe('embedded store: retry of a write batch failed by an lmdb-js free-list fault', () => {
  it('applies the commit once, in a later batch, and reports the fault', async () => {
    const reports: string[] = [];
    const store = open(reports);
    try {
      const start = store.latestCommitTs();
      const spy = failBatches(store, 2, () => batchFailure(MDB_BAD_VALSIZE, 'MDB_BAD_VALSIZE: Unsupported size of key/DB name/data'));
      const ts = await store.commit({ startTs: start, mutations: [{ op: 'put', key: b('k'), value: b('v1') }], checkKeys: [] });
      expect(spy.calls()).toBe(3);
      expect(ts).toBe(start + 1n);
      expect(store.latestCommitTs()).toBe(start + 1n);
      expect(await readText(store, 'k')).toBe('v1');
      expect(reports).toHaveLength(2);
      expect(reports[0]).toContain('(attempt 1 of 6), retrying in 5 ms');
      expect(reports[0]).toContain('MDB_BAD_VALSIZE');
    } finally {
      await store.close();
    }
  });

  it('checks conflicts again on the retry: a commit that landed in between wins', async () => {
    const reports: string[] = [];
    const store = open(reports);
    try {
      const start = store.latestCommitTs();
      const rival = (): Promise<bigint> => store.commit({ startTs: start, mutations: [{ op: 'put', key: b('k'), value: b('rival') }], checkKeys: [] });
      failBatches(store, 1, () => batchFailure(MDB_BAD_VALSIZE, 'MDB_BAD_VALSIZE'), rival);
      await expect(store.commit({ startTs: start, mutations: [{ op: 'put', key: b('k'), value: b('mine') }], checkKeys: [] })).rejects.toMatchObject({ errno: 1213 });
      expect(await readText(store, 'k')).toBe('rival');
    } finally {
      await store.close();
    }
  });

  it('gives up after six attempts with the mapped storage error', async () => {
    const store = open([]);
    try {
      // Six failing attempts; the seventh transaction is the mark that the batch failed (markFailedBatch),
      // which runs for real (a seventh commit attempt would commit, and 'k' would be there).
      const spy = failBatches(store, 6, () => batchFailure(MDB_BAD_VALSIZE, 'MDB_BAD_VALSIZE'));
      await expect(store.commit({ startTs: store.latestCommitTs(), mutations: [{ op: 'put', key: b('k'), value: b('v') }], checkKeys: [] })).rejects.toMatchObject({ errno: 1180 });
      expect(spy.calls()).toBe(7);
      expect(await readText(store, 'k')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('does not retry other write failures (an I/O error is reported at once)', async () => {
    const store = open([]);
    try {
      const spy = failBatches(store, 1, () => batchFailure(EIO, 'Input/output error'));
      await expect(store.commit({ startTs: store.latestCommitTs(), mutations: [{ op: 'put', key: b('k'), value: b('v') }], checkKeys: [] })).rejects.toMatchObject({ errno: 1180 });
      // One attempt, then the mark that the batch failed (markFailedBatch), not a second attempt.
      expect(spy.calls()).toBe(2);
      expect(await readText(store, 'k')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('runs a failed batch of a range delete (DROP TABLE) again too', async () => {
    const reports: string[] = [];
    const store = open(reports);
    try {
      const mutations = ['a1', 'a2', 'b1'].map((k) => ({ op: 'put' as const, key: b(k), value: b(k) }));
      await store.commit({ startTs: store.latestCommitTs(), mutations, checkKeys: [] });
      const spy = failBatches(store, 1, () => batchFailure(MDB_BAD_VALSIZE, 'MDB_BAD_VALSIZE'), undefined, 'transaction');
      await store.deleteRange({ start: b('a'), end: b('b') });
      expect(spy.calls()).toBe(2);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toContain('delete range');
      expect(await readText(store, 'a1')).toBeUndefined();
      expect(await readText(store, 'a2')).toBeUndefined();
      expect(await readText(store, 'b1')).toBe('b1');
    } finally {
      await store.close();
    }
  });
});
