import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Mutation } from '../../src/kv/index.js';
import { EmbeddedStore } from '../../src/kv/embedded/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { expectOneOfEightWins, readText, tempDir } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);
const put = (key: string, value: string): Mutation => ({ op: 'put', key: b(key), value: b(value) });

async function withStores<T>(count: number, fn: (stores: EmbeddedStore[]) => Promise<T>): Promise<T> {
  const dir = tempDir('shale-pipeline-');
  const stores = Array.from({ length: count }, () => EmbeddedStore.open(dir, { gcIntervalMs: 0 }));
  try {
    return await fn(stores);
  } finally {
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('embedded store commits under concurrency', () => {
  it('of commits queued together on one key from one snapshot, exactly one wins', async () => {
    await withStores(1, async ([store]) => {
      const s = store as EmbeddedStore;
      const snap = await s.snapshot();
      await expectOneOfEightWins(s, snap.startTs);
      snap.release();
    });
  });

  it('a concurrent commit conflicts with a checkKeys read of the same key', async () => {
    await withStores(1, async ([store]) => {
      const s = store as EmbeddedStore;
      const snap = await s.snapshot();
      const first = s.commit({ startTs: snap.startTs, mutations: [put('a', '1')], checkKeys: [] });
      const second = s.commit({ startTs: snap.startTs, mutations: [put('b', '1')], checkKeys: [b('a')] });
      snap.release();
      // Both settle independently (the conflict may be known before the first is durable).
      await Promise.all([expect(first).resolves.toBeTypeOf('bigint'), expect(second).rejects.toMatchObject({ errno: 1213 })]);
      expect(await readText(s, 'b')).toBeUndefined();
    });
  });

  it('commit timestamps increase and later snapshots see every acknowledged commit', async () => {
    await withStores(1, async ([store]) => {
      const s = store as EmbeddedStore;
      const snap = await s.snapshot();
      const ts = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.commit({ startTs: snap.startTs, mutations: [put(`k${i}`, String(i))], checkKeys: [] })),
      );
      snap.release();
      expect([...ts].sort((x, y) => (x < y ? -1 : 1))).toEqual(ts);
      expect(new Set(ts).size).toBe(20);
      const after = await s.snapshot();
      expect(after.startTs).toBe(ts[19]);
      const values = await after.batchGet(ts.map((_, i) => b(`k${i}`)));
      after.release();
      expect(values.map((v) => (v === undefined ? undefined : utf8Decode(v)))).toEqual(ts.map((_, i) => String(i)));
    });
  });

  it('commits queued together share a write batch: each conflicts with what earlier ones in it wrote', async () => {
    await withStores(1, async ([store]) => {
      const s = store as EmbeddedStore;
      await s.commit({ startTs: 0n, mutations: [put('gone', '1'), put('entry', '1'), put('kept', '1')], checkKeys: [] });
      const snap = await s.snapshot();
      const start = snap.startTs;
      const commit = (mutations: Mutation[], checkKeys: string[] = []): Promise<bigint> => s.commit({ startTs: start, mutations, checkKeys: checkKeys.map(b) });
      // Submitted in one turn, so one LMDB write transaction applies them all, in this order.
      const results = await Promise.allSettled([
        commit([{ op: 'del', key: b('gone') }, { op: 'del', key: b('entry'), derived: true }]),
        commit([put('a', 'x')], ['gone']), // the tombstone is newer than its snapshot: conflict
        commit([put('b', 'x')], ['entry']), // a derived delete leaves no version behind: no conflict
        commit([put('kept', '2')]),
        commit([{ op: 'del', key: b('kept') }]), // an earlier member's put: conflict
        commit([put('c', 'x')]),
      ]);
      snap.release();
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ errno: 1213 });
      // Only the members that passed took commit timestamps, consecutively and in order.
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(won).toEqual([start + 1n, start + 2n, start + 3n, start + 4n]);
      expect(s.latestCommitTs()).toBe(start + 4n);
      expect([await readText(s, 'a'), await readText(s, 'b'), await readText(s, 'kept'), await readText(s, 'c'), await readText(s, 'gone')]).toEqual([undefined, 'x', '2', 'x', undefined]);
    });
  });

  it('two stores on one directory interleave read-modify-write commits without losing or double-applying writes', async () => {
    await withStores(2, async ([a, b2]) => {
      const s1 = a as EmbeddedStore;
      const s2 = b2 as EmbeddedStore;
      // Interleaved read-modify-write increments from both writers, many in flight at once.
      const increment = async (s: EmbeddedStore): Promise<void> => {
        for (;;) {
          const snap = await s.snapshot();
          try {
            const cur = await snap.get(b('n'));
            const next = String(Number(cur === undefined ? '0' : utf8Decode(cur)) + 1);
            await s.commit({ startTs: snap.startTs, mutations: [put('n', next)], checkKeys: [] });
            return;
          } catch (err) {
            if ((err as { errno?: number }).errno !== 1213) throw err;
          } finally {
            snap.release();
          }
        }
      };
      const work: Array<Promise<void>> = [];
      for (let i = 0; i < 30; i++) work.push(increment(s1), increment(s2));
      await Promise.all(work);
      expect(await readText(s1, 'n')).toBe('60');
      expect(await readText(s2, 'n')).toBe('60');
    });
  });

  it('a commit from a snapshot older than another store\'s write to the key conflicts', async () => {
    await withStores(2, async ([a, b2]) => {
      const s1 = a as EmbeddedStore;
      const s2 = b2 as EmbeddedStore;
      await s1.commit({ startTs: 0n, mutations: [put('x', '0')], checkKeys: [] });
      const snap = await s1.snapshot();
      // s2 writes x (taking the writer role), then s1 commits from its older snapshot: conflict.
      await s2.commit({ startTs: snap.startTs, mutations: [put('x', 'from-s2')], checkKeys: [] });
      await expect(s1.commit({ startTs: snap.startTs, mutations: [put('x', 'from-s1')], checkKeys: [] })).rejects.toMatchObject({ errno: 1213 });
      snap.release();
      expect(await readText(s1, 'x')).toBe('from-s2');
    });
  });

  it('a check-only commit (no writes) conflicts on a key changed after its snapshot, and only then', async () => {
    await withStores(1, async ([store]) => {
      const s = store as EmbeddedStore;
      const old = await s.snapshot();
      await s.commit({ startTs: old.startTs, mutations: [put('locked', '1')], checkKeys: [] });
      await expect(s.commit({ startTs: old.startTs, mutations: [], checkKeys: [b('locked')] })).rejects.toMatchObject({ errno: 1213 });
      await expect(s.commit({ startTs: old.startTs, mutations: [], checkKeys: [b('other')] })).resolves.toBeTypeOf('bigint');
      old.release();
      const fresh = await s.snapshot();
      await expect(s.commit({ startTs: fresh.startTs, mutations: [], checkKeys: [b('locked')] })).resolves.toBe(fresh.startTs);
      fresh.release();
    });
  });
});
