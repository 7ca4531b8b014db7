import { describe, expect, it } from 'vitest';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openStore, type Mutation } from '../../src/kv/index.js';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);

async function commit(store: EmbeddedStore, mutations: Mutation[]): Promise<bigint> {
  const snap = await store.snapshot();
  try {
    return await store.commit({ startTs: snap.startTs, mutations, checkKeys: [] });
  } finally {
    snap.release();
  }
}

describe('openStore', () => {
  it('accepts lmdb:// URLs and bare paths (mkdir -p); rejects unknown schemes', async () => {
    const base = tempDir('shale-open-');
    try {
      const nested = join(base, 'a', 'b');
      const s1 = await openStore(`lmdb://${nested}`);
      expect(s1.url).toBe(`lmdb://${nested}`);
      await s1.close();
      expect(existsSync(nested)).toBe(true);
      const s2 = await openStore(join(base, 'bare'));
      await s2.close();
      const dotted = join(base, 'shale.data'); // a directory, even with an "extension"
      const s3 = await openStore(dotted);
      await s3.close();
      expect(existsSync(join(dotted, 'data.mdb'))).toBe(true);
      await expect(openStore('tikv://127.0.0.1:2379')).rejects.toThrow(/unsupported.*tikv.*lmdb:\/\//);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('embedded store internals', () => {
  it('snapshotNow is snapshot() without the promise; beginNow follows it; both refuse a closed store', async () => {
    const dir = tempDir('shale-now-');
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
    try {
      await commit(store, [{ op: 'put', key: b('k'), value: b('1') }]);
      const now = store.snapshotNow();
      const later = await store.snapshot();
      expect(now.startTs).toBe(later.startTs);
      expect(await now.get(b('k'))).toEqual(b('1'));
      later.release();
      await commit(store, [{ op: 'put', key: b('k'), value: b('2') }]);
      expect(await now.get(b('k'))).toEqual(b('1')); // still its own snapshot
      now.release();
      const txn = createTxnStore(store).beginNow?.();
      expect(txn).toBeDefined();
      expect(await txn?.get(b('k'))).toEqual(b('2'));
      txn?.rollback();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => store.snapshotNow()).toThrow(/closed/);
    await expect(store.snapshot()).rejects.toThrow(/closed/);
  });

  it('tombstone GC removes old tombstones and refuses commits older than the safe point', async () => {
    const dir = tempDir('shale-gc-');
    const store = EmbeddedStore.open(dir, { gcAgeMs: 0, gcIntervalMs: 0 });
    try {
      await commit(store, [{ op: 'put', key: b('x'), value: b('1') }, { op: 'put', key: b('y'), value: b('1') }]);
      const old = await store.snapshot();
      await commit(store, [{ op: 'del', key: b('x') }, { op: 'del', key: b('never-existed') }]);
      // the open snapshot predates the tombstones: nothing can be collected yet
      expect(await store.collectGarbage()).toBe(0);
      await expect(
        store.commit({ startTs: old.startTs, mutations: [{ op: 'put', key: b('x'), value: b('2') }], checkKeys: [] }),
      ).rejects.toMatchObject({ errno: 1213 });
      old.release();
      const stale = await store.snapshot();
      await commit(store, [{ op: 'put', key: b('z'), value: b('1') }]);
      const gcBlocked = await store.snapshot();
      gcBlocked.release();
      stale.release();
      expect(await store.collectGarbage()).toBe(2);
      // a commit from before the safe point fails cleanly instead of missing a conflict
      await expect(
        store.commit({ startTs: stale.startTs - 1n, mutations: [{ op: 'put', key: b('q'), value: b('1') }], checkKeys: [] }),
      ).rejects.toThrow(/older than the GC safe point/);
      const snap = await store.snapshot();
      expect(await snap.get(b('x'))).toBeUndefined();
      expect(await snap.get(b('y'))).toBeDefined();
      snap.release();
      await commit(store, [{ op: 'put', key: b('x'), value: b('again') }]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('derived writes skip the conflict check, and a derived delete leaves no tombstone but hides nothing from older snapshots', async () => {
    const dir = tempDir('shale-derived-');
    const store = EmbeddedStore.open(dir, { gcAgeMs: 0, gcIntervalMs: 0 });
    try {
      await commit(store, [{ op: 'put', key: b('a'), value: b('1') }, { op: 'put', key: b('b'), value: b('1') }]);
      const old = await store.snapshot();
      await commit(store, [{ op: 'put', key: b('a'), value: b('2') }, { op: 'put', key: b('b'), value: b('2') }]);
      const before = await store.snapshot();
      // Both keys changed after `old`: checked writes conflict, derived ones are not checked.
      await expect(store.commit({ startTs: old.startTs, mutations: [{ op: 'put', key: b('a'), value: b('x') }], checkKeys: [] })).rejects.toMatchObject({
        errno: 1213,
      });
      await expect(store.commit({ startTs: old.startTs, mutations: [{ op: 'del', key: b('b') }], checkKeys: [] })).rejects.toMatchObject({ errno: 1213 });
      await store.commit({
        startTs: old.startTs,
        mutations: [
          { op: 'put', key: b('a'), value: b('3'), derived: true },
          { op: 'del', key: b('b'), derived: true },
        ],
        checkKeys: [],
      });
      old.release();
      const after = await store.snapshot();
      expect(Buffer.from((await after.get(b('a'))) ?? []).toString()).toBe('3');
      expect(await after.get(b('b'))).toBeUndefined();
      expect(await after.scan({ start: b('a'), end: b('c') }, { limit: 10 })).toHaveLength(1);
      after.release();
      expect(Buffer.from((await before.get(b('b'))) ?? []).toString()).toBe('2');
      before.release();
      // GC collects a tombstone once a later commit moved the safe point past it: the derived
      // delete left none, a checked one does.
      await commit(store, [{ op: 'put', key: b('z'), value: b('1') }]);
      expect(await store.collectGarbage()).toBe(0);
      await commit(store, [{ op: 'del', key: b('a') }]);
      await commit(store, [{ op: 'put', key: b('z'), value: b('2') }]);
      expect(await store.collectGarbage()).toBe(1);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects empty and oversized keys without applying anything', async () => {
    const dir = tempDir('shale-keys-');
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
    try {
      await expect(commit(store, [{ op: 'put', key: new Uint8Array(0), value: b('v') }])).rejects.toThrow(/key length/);
      await expect(
        commit(store, [{ op: 'put', key: b('ok'), value: b('v') }, { op: 'put', key: new Uint8Array(5000), value: b('v') }]),
      ).rejects.toThrow(/key length/);
      const snap = await store.snapshot();
      expect(await snap.get(b('ok'))).toBeUndefined();
      expect(await snap.get(new Uint8Array(0))).toBeUndefined();
      snap.release();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('expires the oldest pinned read txn instead of exhausting LMDB reader slots', async () => {
    const dir = tempDir('shale-pin-');
    const store = EmbeddedStore.open(dir, { maxPinnedReadTxns: 2, gcIntervalMs: 0 });
    try {
      const s1 = await store.snapshot();
      const s1b = await store.snapshot(); // same commit point: shares s1's read txn
      await commit(store, [{ op: 'put', key: b('a'), value: b('1') }]);
      const s2 = await store.snapshot();
      await commit(store, [{ op: 'put', key: b('a'), value: b('2') }]);
      const s3 = await store.snapshot();
      await expect(s1.get(b('a'))).rejects.toThrow(/expired/);
      expect(() => s1b.release()).not.toThrow();
      expect(await s2.get(b('a'))).toEqual(b('1'));
      expect(await s3.get(b('a'))).toEqual(b('2'));
      for (const x of [s1, s2, s3]) x.release();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a snapshot right after another was released shares its read txn, never hides a later commit, and the hold ends', async () => {
    const dir = tempDir('shale-hold-');
    const store = EmbeddedStore.open(dir, { gcAgeMs: 0, gcIntervalMs: 0 });
    try {
      await commit(store, [{ op: 'put', key: b('a'), value: b('1') }]);
      const s1 = await store.snapshot();
      expect(await s1.get(b('a'))).toEqual(b('1'));
      s1.release();
      const s2 = await store.snapshot(); // same event-loop turn: joins s1's held group
      expect(s2.startTs).toBe(s1.startTs);
      expect(await s2.get(b('a'))).toEqual(b('1'));
      s2.release();
      await commit(store, [{ op: 'del', key: b('a') }]);
      const s3 = await store.snapshot(); // the commit ended lmdb-js's read txn: a new group
      expect(s3.startTs).toBeGreaterThan(s1.startTs);
      expect(await s3.get(b('a'))).toBeUndefined();
      s3.release();
      // Once the holds are dropped (next setImmediate) nothing pins the old snapshot: the
      // tombstone of `a` is collectable.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await store.collectGarbage()).toBe(1);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('grows past a tiny initial map size while a snapshot is open', async () => {
    const dir = tempDir('shale-grow-');
    const store = EmbeddedStore.open(dir, { mapSize: 256 * 1024, gcIntervalMs: 0 });
    try {
      const held = await store.snapshot();
      const value = new Uint8Array(64 * 1024).fill(7);
      for (let i = 0; i < 40; i++) await commit(store, [{ op: 'put', key: b(`g${i}`), value }]);
      expect(await held.get(b('g0'))).toBeUndefined();
      held.release();
      const snap = await store.snapshot();
      expect((await snap.get(b('g39')))?.length).toBe(value.length);
      snap.release();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a snapshot dropped without release() stops blocking tombstone GC once collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const dir = tempDir('shale-leak-');
    const store = EmbeddedStore.open(dir, { gcAgeMs: 0, gcIntervalMs: 0 });
    try {
      await commit(store, [{ op: 'put', key: b('x'), value: b('1') }]);
      await (async () => {
        const leaked = await store.snapshot();
        expect(await leaked.get(b('x'))).toEqual(b('1'));
      })();
      await commit(store, [{ op: 'del', key: b('x') }]);
      expect(await store.collectGarbage()).toBe(0);
      let removed = 0;
      for (let i = 0; i < 50 && removed === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        gc();
        await new Promise((resolve) => setTimeout(resolve, 0));
        removed = await store.collectGarbage();
      }
      expect(removed).toBe(1);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returned values stay intact across later reads (pages and slab regions are never reused)', async () => {
    const dir = tempDir('shale-own-');
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
    try {
      const big = new Uint8Array(5000).fill(9);
      const muts: Mutation[] = [];
      for (let i = 0; i < 300; i++) muts.push({ op: 'put', key: b(`k${String(i).padStart(3, '0')}`), value: b(`v${i}`) });
      muts.push({ op: 'put', key: b('k150x'), value: big });
      await commit(store, muts);
      await commit(store, [{ op: 'del', key: b('k002') }]);
      const snap = await store.snapshot();
      const first = await snap.scan({ start: b('k'), end: b('l') }, { limit: 10 });
      const got = await snap.get(b('k007'));
      const many = await snap.batchGet([b('k010'), b('nope'), b('k150x'), b('k002'), b('k011')]);
      for (let i = 0; i < 200; i++) {
        await snap.scan({ start: b('k'), end: b('l') }, { limit: 100, reverse: i % 2 === 0 });
        await snap.get(b(`k${String(i).padStart(3, '0')}`));
      }
      expect(first.map((p) => new TextDecoder().decode(p.key))).toEqual(
        ['k000', 'k001', 'k003', 'k004', 'k005', 'k006', 'k007', 'k008', 'k009', 'k010'],
      );
      expect(first.map((p) => new TextDecoder().decode(p.value))).toEqual(['v0', 'v1', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10']);
      expect(got).toEqual(b('v7'));
      expect(many).toEqual([b('v10'), undefined, big, undefined, b('v11')]);
      const all = await snap.scan({ start: b('k'), end: b('l') }, { limit: 1000 });
      expect(all).toHaveLength(300);
      expect(all.find((p) => p.key.length === 5)?.value).toEqual(big);
      snap.release();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scanMapped maps exactly what scan returns (tombstones skipped, limit, reverse) and owns only a full page\'s lastKey', async () => {
    const dir = tempDir('shale-mapped-');
    const store = EmbeddedStore.open(dir, { gcIntervalMs: 0 });
    try {
      const muts: Mutation[] = [];
      for (let i = 0; i < 50; i++) muts.push({ op: 'put', key: b(`m${String(i).padStart(2, '0')}`), value: b(`value-${i}`.repeat(i % 7 + 1)) });
      muts.push({ op: 'put', key: b('m25x'), value: new Uint8Array(3000).fill(7) });
      await commit(store, muts);
      await commit(store, [{ op: 'del', key: b('m03') }, { op: 'del', key: b('m40') }]);
      const snap = await store.snapshot();
      const mapped = snap.scanMapped;
      if (mapped === undefined) throw new Error('the embedded store has scanMapped');
      const text = (k: Uint8Array, v: Uint8Array): [string, string] => [new TextDecoder().decode(k), new TextDecoder().decode(v)];
      const copy = (k: Uint8Array, ks: number, ke: number, v: Uint8Array, vs: number, ve: number): [string, string] => text(k.subarray(ks, ke), v.subarray(vs, ve));
      for (const [opts, range] of [
        [{ limit: 1000 }, { start: b('m'), end: b('n') }],
        [{ limit: 10 }, { start: b('m'), end: b('n') }],
        [{ limit: 7, reverse: true }, { start: b('m1'), end: b('m45') }],
        [{ limit: 5 }, { start: b('m99'), end: b('n') }],
      ] as const) {
        const pairs = await snap.scan(range, opts);
        const page = await mapped.call(snap, range, opts, copy);
        expect(page.items).toEqual(pairs.map((p) => text(p.key, p.value)));
        // The last key is handed out (copied) only for a full page: the caller pages on past it.
        expect(page.lastKey).toEqual(pairs.length === opts.limit ? pairs[pairs.length - 1]?.key : undefined);
      }
      const page = await mapped.call(snap, { start: b('m'), end: b('n') }, { limit: 3 }, copy);
      const last = page.lastKey as Uint8Array;
      await mapped.call(snap, { start: b('m4'), end: b('n') }, { limit: 100 }, copy); // lmdb reuses its key buffer
      expect(new TextDecoder().decode(last)).toBe('m02');
      snap.release();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
