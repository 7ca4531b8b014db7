/**
 * Key runs (kv key-run.ts) committed by the embedded store (run-check.ts, commit-apply.ts): every
 * key written with the run's value, first committer wins on each run key found with one cursor
 * walk, the run's puts in the redo record (what recovery replays), and the plain mutations a
 * store without runs gets instead (Txn.commitRun).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { readChain } from '../../src/kv/embedded/redo-record.js';
import { runKey, type CommitRequest, type KeyRun, type Store } from '../../src/kv/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { radixOrder, toHex } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const PREFIX = Uint8Array.from([0x69, 0x78]); // "ix"
const VALUE = Uint8Array.from([0x30]);

/** A run over records 0, 2, 4, ... (2 bytes each, big-endian), shuffled in the arena. */
function evenRun(count: number): KeyRun {
  const records = new Uint8Array(count * 2);
  for (let i = 0; i < count; i++) {
    const n = ((i * 7919) % count) * 2; // a permutation of the even numbers below 2 * count
    records[i * 2] = n >> 8;
    records[i * 2 + 1] = n & 0xff;
  }
  return { prefix: PREFIX, records, width: 2, order: radixOrder(records, 2, count), from: 0, to: count, value: VALUE };
}

/** The key "ix" + n (2 bytes), for n in or between the run's records. */
const ixKey = (n: number): Uint8Array => Uint8Array.from([...PREFIX, n >> 8, n & 0xff]);

describe('embedded store: key runs', () => {
  let dir: string;
  let store: EmbeddedStore;
  beforeEach(() => {
    dir = tempDir('shale-run-commit-');
    store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const put = async (key: Uint8Array, value = Uint8Array.from([1])): Promise<void> => {
    await store.commit({ startTs: store.latestCommitTs(), mutations: [{ op: 'put', key, value }], checkKeys: [] });
  };
  const read = async (key: Uint8Array): Promise<string | undefined> => {
    const snap = await store.snapshot();
    try {
      const v = await snap.get(key);
      return v === undefined ? undefined : toHex(v);
    } finally {
      snap.release();
    }
  };

  it('writes every key of the run with its value, in windows committed from one open transaction', async () => {
    const txns = createTxnStore(store);
    const run = evenRun(1000);
    const txn = await txns.begin();
    await txn.commitRun({ ...run, to: 600 });
    await txn.commitRun({ ...run, from: 600 });
    txn.rollback();
    for (const n of [0, 2, 998, 1200, 1998]) expect(await read(ixKey(n))).toBe(toHex(VALUE));
    for (const n of [1, 999, 2000]) expect(await read(ixKey(n))).toBeUndefined();
    const snap = await store.snapshot();
    const all = await snap.scan({ start: PREFIX, end: Uint8Array.from([0x69, 0x79]) }, { limit: 5000 });
    snap.release();
    expect(all.length).toBe(1000);
  });

  it('stores each key with the value part of its own record when the run has them', async () => {
    // Records: a 2-byte key part, then a 1-byte value (the key's low byte + 1).
    const records = new Uint8Array(3 * 50);
    for (let i = 0; i < 50; i++) records.set([0, (i * 7) % 50, ((i * 7) % 50) + 1], i * 3);
    const run: KeyRun = { prefix: PREFIX, records, width: 2, valueWidth: 1, order: radixOrder(records, 3, 50), from: 0, to: 50, value: new Uint8Array(0) };
    const txn = await createTxnStore(store).begin();
    await txn.commitRun(run);
    txn.rollback();
    for (const n of [0, 7, 49]) expect(await read(ixKey(n))).toBe(toHex(Uint8Array.from([n + 1])));
  });

  it('fails with 1213 on a run key committed after the snapshot, and writes none of the run', async () => {
    const txn = await createTxnStore(store).begin();
    await put(ixKey(1000));
    await expect(txn.commitRun(evenRun(1000))).rejects.toMatchObject({ errno: 1213, message: expect.stringContaining(toHex(ixKey(1000))) });
    txn.rollback();
    expect(await read(ixKey(998))).toBeUndefined();
  });

  it('fails on a run key deleted after the snapshot (its tombstone is a commit too)', async () => {
    await put(ixKey(40));
    const txn = await createTxnStore(store).begin();
    await store.commit({ startTs: store.latestCommitTs(), mutations: [{ op: 'del', key: ixKey(40) }], checkKeys: [] });
    await expect(txn.commitRun(evenRun(100))).rejects.toMatchObject({ errno: 1213 });
    txn.rollback();
  });

  it('passes over keys between its own written after the snapshot, and over its own keys written before it', async () => {
    await put(ixKey(10), Uint8Array.from([7]));
    const txn = await createTxnStore(store).begin();
    await put(ixKey(11)); // not a run key
    await put(Uint8Array.from([0x69, 0x78, 0x00])); // shorter than the run's keys, inside its stretch
    await txn.commitRun(evenRun(100));
    txn.rollback();
    expect(await read(ixKey(10))).toBe(toHex(VALUE));
    expect(await read(ixKey(11))).toBe('01');
  });

  it('takes a run and mutations in one request, and refuses a run out of order before writing anything', async () => {
    const run = evenRun(50);
    const req: CommitRequest = { startTs: store.latestCommitTs(), mutations: [{ op: 'put', key: Uint8Array.from([1]), value: VALUE }], checkKeys: [], run };
    await store.commit(req);
    expect(await read(Uint8Array.from([1]))).toBe(toHex(VALUE));
    expect(await read(ixKey(98))).toBe(toHex(VALUE));
    const reversed: KeyRun = { ...evenRun(4), prefix: Uint8Array.from([0x6a]), order: Uint32Array.from(Array.from(evenRun(4).order).reverse()) };
    await expect(store.commit({ startTs: store.latestCommitTs(), mutations: [{ op: 'put', key: Uint8Array.from([2]), value: VALUE }], checkKeys: [], run: reversed })).rejects.toThrow(/not above/);
    expect(await read(Uint8Array.from([2]))).toBeUndefined();
  });

  it('logs the run as plain puts of the stored value, which is what recovery replays', async () => {
    const run = evenRun(300);
    const txn = await createTxnStore(store).begin();
    await txn.commitRun(run);
    txn.rollback();
    const logged = new Map<string, string>();
    for (const name of readdirSync(dir).filter((f) => /^redo\.\d+$/.test(f))) {
      const gen = BigInt(name.slice('redo.'.length));
      for (const rec of readChain(readFileSync(join(dir, name)), gen).records) {
        if (rec.kind !== 'writes') continue;
        for (const op of rec.ops) if (op.db === 'data' && op.op === 'put') logged.set(toHex(op.key), toHex(op.value));
      }
    }
    for (let i = 0; i < 300; i++) {
      const stored = logged.get(toHex(runKey(run, i)));
      expect(stored).toBeDefined();
      // The stored value: the commit's timestamp (8 bytes), the live marker, then the run's value.
      expect(stored?.slice(16)).toBe(`01${toHex(VALUE)}`);
    }
  });

  it('reaches a store without runs as plain mutations (Txn.commitRun)', async () => {
    const seen: CommitRequest[] = [];
    const plain: Store = {
      url: store.url,
      checksAbsent: true,
      snapshot: () => store.snapshot(),
      commit: (req) => {
        seen.push(req);
        return store.commit(req);
      },
      deleteRange: (range) => store.deleteRange(range),
      close: () => Promise.resolve(),
    };
    const txn = await createTxnStore(plain).begin();
    await txn.commitRun(evenRun(20));
    txn.rollback();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.run).toBeUndefined();
    expect(seen[0]?.mutations.map((m) => toHex(m.key))).toEqual(Array.from({ length: 20 }, (_, i) => toHex(ixKey(2 * i))));
    expect(await read(ixKey(38))).toBe(toHex(VALUE));
  });
});
