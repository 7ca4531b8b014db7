import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KeyExistsError, type Mutation, type Store } from '../../src/kv/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { compareBytes, utf8Decode, utf8Encode } from '../../src/util/index.js';
import { BACKENDS, selectedBackends, type BackendSpace } from './backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);
const s = (v: Uint8Array | undefined): string | undefined => (v === undefined ? undefined : utf8Decode(v));

async function write(store: Store, puts: Record<string, string>, dels: string[] = []): Promise<bigint> {
  const snap = await store.snapshot();
  try {
    const mutations: Mutation[] = Object.entries(puts).map(([k, v]) => ({ op: 'put', key: b(k), value: b(v) }));
    for (const k of dels) mutations.push({ op: 'del', key: b(k) });
    return await store.commit({ startTs: snap.startTs, mutations, checkKeys: [] });
  } finally {
    snap.release();
  }
}

async function expectConflict(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toMatchObject({ errno: 1213, sqlState: '40001' });
}

for (const name of selectedBackends()) {
  const factory = BACKENDS[name];
  if (factory === undefined) throw new Error(`unknown KV backend '${name}' (known: ${Object.keys(BACKENDS).join(', ')})`);

  describe(`kv conformance: ${name}`, () => {
    let space: BackendSpace;
    let store: Store;
    beforeEach(async () => {
      space = await factory();
      store = await space.open();
    });
    afterEach(async () => {
      await store.close();
      await space.cleanup();
    });

    it('get and batchGet, absent keys undefined', async () => {
      await write(store, { a: '1', b: '2' });
      const snap = await store.snapshot();
      expect(s(await snap.get(b('a')))).toBe('1');
      expect(await snap.get(b('zz'))).toBeUndefined();
      expect((await snap.batchGet([b('b'), b('x'), b('a')])).map(s)).toEqual(['2', undefined, '1']);
      snap.release();
      snap.release(); // idempotent
    });

    it('returned buffers belong to the caller', async () => {
      await write(store, { a: 'hello', b: 'world' });
      const snap = await store.snapshot();
      const v1 = await snap.get(b('a'));
      const v2 = await snap.get(b('b'));
      expect(s(v1)).toBe('hello');
      (v2 as Uint8Array).fill(0);
      expect(s(await snap.get(b('b')))).toBe('world');
      snap.release();
    });

    it('commit timestamps increase; a snapshot does not see later commits', async () => {
      const t1 = await write(store, { k: 'v1' });
      const old = await store.snapshot();
      expect(old.startTs).toBeGreaterThanOrEqual(t1);
      const t2 = await write(store, { k: 'v2', n: 'new' }, []);
      expect(t2).toBeGreaterThan(t1);
      await write(store, {}, ['k']);
      expect(s(await old.get(b('k')))).toBe('v1');
      expect(await old.get(b('n'))).toBeUndefined();
      expect((await old.scan({ start: b('a'), end: b('z') }, { limit: 10 })).map((p) => s(p.key))).toEqual(['k']);
      const fresh = await store.snapshot();
      expect(await fresh.get(b('k'))).toBeUndefined();
      expect(s(await fresh.get(b('n')))).toBe('new');
      old.release();
      fresh.release();
    });

    it('first committer wins: write-write on one key', async () => {
      await write(store, { k: '0' });
      const s1 = await store.snapshot();
      const s2 = await store.snapshot();
      await store.commit({ startTs: s1.startTs, mutations: [{ op: 'put', key: b('k'), value: b('1') }], checkKeys: [] });
      await expectConflict(
        store.commit({ startTs: s2.startTs, mutations: [{ op: 'put', key: b('k'), value: b('2') }], checkKeys: [] }),
      );
      s1.release();
      s2.release();
      const snap = await store.snapshot();
      expect(s(await snap.get(b('k')))).toBe('1');
      snap.release();
    });

    it('first committer wins: delete vs write, insert vs insert, checkKeys', async () => {
      await write(store, { d: 'x', c: 'c0' });
      const s1 = await store.snapshot();
      const s2 = await store.snapshot();
      await store.commit({ startTs: s1.startTs, mutations: [{ op: 'del', key: b('d') }], checkKeys: [] });
      await expectConflict(
        store.commit({ startTs: s2.startTs, mutations: [{ op: 'put', key: b('d'), value: b('y') }], checkKeys: [] }),
      );
      // insert vs insert of a key that did not exist at either snapshot
      const s3 = await store.snapshot();
      const s4 = await store.snapshot();
      await store.commit({ startTs: s3.startTs, mutations: [{ op: 'put', key: b('new'), value: b('1') }], checkKeys: [] });
      await expectConflict(
        store.commit({ startTs: s4.startTs, mutations: [{ op: 'put', key: b('new'), value: b('2') }], checkKeys: [] }),
      );
      // checkKeys: only read, never written by the loser
      const s5 = await store.snapshot();
      await write(store, { c: 'c1' });
      await expectConflict(
        store.commit({ startTs: s5.startTs, mutations: [{ op: 'put', key: b('other'), value: b('1') }], checkKeys: [b('c')] }),
      );
      // an unchanged checked key passes
      const s6 = await store.snapshot();
      await store.commit({ startTs: s6.startTs, mutations: [{ op: 'put', key: b('other'), value: b('2') }], checkKeys: [b('c')] });
      for (const x of [s1, s2, s3, s4, s5, s6]) x.release();
    });

    it('a commit with only checked keys: conflicts when one changed, else passes and writes nothing', async () => {
      await write(store, { c: 'c0' });
      const stale = await store.snapshot();
      const fresh = await store.snapshot();
      await write(store, { c: 'c1' });
      await expectConflict(store.commit({ startTs: stale.startTs, mutations: [], checkKeys: [b('c')] }));
      const after = await store.snapshot();
      await store.commit({ startTs: after.startTs, mutations: [], checkKeys: [b('c'), b('absent')] });
      // A key that did not exist at the snapshot and was created since is a change too.
      await write(store, { absent: 'now' });
      await expectConflict(store.commit({ startTs: after.startTs, mutations: [], checkKeys: [b('absent')] }));
      const last = await store.snapshot();
      const before = last.startTs;
      await store.commit({ startTs: last.startTs, mutations: [], checkKeys: [b('c')] });
      const next = await store.snapshot();
      expect(next.startTs).toBe(before);
      for (const x of [stale, fresh, after, last, next]) x.release();
    });

    it('a mutation or checked key with a later `since` conflicts only with commits after it', async () => {
      await write(store, { u: 'u0', w: 'w0', c: 'c0' });
      const old = await store.snapshot();
      await write(store, { u: 'u1', w: 'w1', c: 'c1' });
      const current = await store.snapshot();
      // Read at `current` (a current read): the commits between the two snapshots do not count.
      await store.commit({
        startTs: old.startTs,
        mutations: [{ op: 'put', key: b('u'), value: b('u2'), since: current.startTs }],
        checkKeys: [],
        laterChecks: [{ key: b('c'), since: current.startTs }],
      });
      // Without it they do: the same writes from the old snapshot fail.
      await expectConflict(store.commit({ startTs: old.startTs, mutations: [{ op: 'put', key: b('w'), value: b('w2') }], checkKeys: [] }));
      await expectConflict(store.commit({ startTs: old.startTs, mutations: [], checkKeys: [b('c')] }));
      // A commit after `since` conflicts, for a delete, a put and a checked key alike.
      const mid = await store.snapshot();
      await write(store, { w: 'w3', c: 'c3', u: 'u3' });
      await expectConflict(store.commit({ startTs: old.startTs, mutations: [{ op: 'del', key: b('w'), since: mid.startTs }], checkKeys: [] }));
      await expectConflict(store.commit({ startTs: old.startTs, mutations: [], checkKeys: [], laterChecks: [{ key: b('c'), since: mid.startTs }] }));
      await expectConflict(store.commit({
        startTs: old.startTs,
        mutations: [{ op: 'put', key: b('x'), value: b('1') }],
        checkKeys: [],
        laterChecks: [{ key: b('u'), since: mid.startTs }],
      }));
      const end = await store.snapshot();
      expect([s(await end.get(b('u'))), s(await end.get(b('w'))), s(await end.get(b('x')))]).toEqual(['u3', 'w3', undefined]);
      for (const x of [old, current, mid, end]) x.release();
    });

    it('derived writes apply with their commit: deleted for later snapshots, not for earlier ones, nothing on conflict', async () => {
      await write(store, { row: 'r0', e1: 'x', e2: 'x' });
      const old = await store.snapshot();
      await write(store, { row: 'r1' });
      const derived: Mutation[] = [
        { op: 'del', key: b('e1'), derived: true },
        { op: 'put', key: b('e3'), value: b('y'), derived: true },
      ];
      // The covering row key changed after `old`: the whole commit fails, its derived writes too.
      await expectConflict(store.commit({ startTs: old.startTs, mutations: [{ op: 'put', key: b('row'), value: b('r2') }, ...derived], checkKeys: [] }));
      const mid = await store.snapshot();
      await store.commit({ startTs: mid.startTs, mutations: [{ op: 'put', key: b('row'), value: b('r2') }, ...derived], checkKeys: [] });
      const now = await store.snapshot();
      expect((await now.batchGet(['row', 'e1', 'e2', 'e3'].map(b))).map(s)).toEqual(['r2', undefined, 'x', 'y']);
      expect((await now.scan({ start: b('e'), end: b('f') }, { limit: 10 })).map((p) => s(p.key))).toEqual(['e2', 'e3']);
      expect((await mid.batchGet(['row', 'e1', 'e3'].map(b))).map(s)).toEqual(['r1', 'x', undefined]);
      for (const x of [old, mid, now]) x.release();
    });

    it('absent writes: a live key fails the commit as the describer says, nothing applied; a deleted key passes', async () => {
      await write(store, { live: 'x', gone: 'y' }, []);
      await write(store, {}, ['gone']);
      const txns = createTxnStore(store);
      const txn = await txns.begin();
      expect(txn.putAbsent(b('other'), b('1'))).toBe(true);
      expect(txn.putAbsent(b('live'), b('2'))).toBe(true);
      txn.put(b('held'), b('0'));
      expect(txn.putAbsent(b('held'), b('again'))).toBe(false);
      txn.onExistingKey((key) => (s(key) === 'live' ? new Error('row live exists') : undefined));
      await expect(txn.commit()).rejects.toThrow('row live exists');
      const after = await txns.view(async (t) => (await t.batchGet([b('live'), b('other')])).map(s));
      expect(after).toEqual(['x', undefined]);
      await txns.update(async (t) => {
        expect(t.putAbsent(b('gone'), b('back'))).toBe(true);
        expect(t.putAbsent(b('fresh'), b('new'))).toBe(true);
      });
      expect(await txns.view(async (t) => (await t.batchGet([b('gone'), b('fresh')])).map(s))).toEqual(['back', 'new']);
      if (store.checksAbsent === true) {
        const snap = await store.snapshot();
        await expect(store.commit({ startTs: snap.startTs, mutations: [{ op: 'put', key: b('live'), value: b('z'), absent: true }], checkKeys: [] })).rejects.toBeInstanceOf(KeyExistsError);
        snap.release();
      }
    });

    it('a bulk of absent writes is checked key by key whatever lies in or around its stretch', async () => {
      const keysOf = (p: string): string[] => Array.from({ length: 100 }, (_, i) => `${p}${String(i).padStart(3, '0')}`);
      const bulk = async (keys: string[], tag: string, before?: () => Promise<unknown>): Promise<void> => {
        const txns = createTxnStore(store);
        const txn = await txns.begin();
        for (const k of keys) expect(txn.putAbsent(b(k), b(tag))).toBe(true);
        txn.onExistingKey((key) => new Error(`row ${s(key)} exists`));
        await before?.();
        await txn.commit();
      };
      const values = async (keys: string[]): Promise<Array<string | undefined>> => createTxnStore(store).view(async (t) => (await t.batchGet(keys.map(b))).map(s));
      // Nothing stored in the stretch (keys around it only): all pass.
      await write(store, { m: 'x', o: 'x', q: 'x' });
      const n = keysOf('n');
      await bulk(n, '1');
      expect(new Set(await values(n))).toEqual(new Set(['1']));
      // One live key alone inside another stretch fails the whole commit, nothing applied.
      const p = keysOf('p');
      await write(store, { p050: 'live' });
      await expect(bulk(p, '2')).rejects.toThrow('row p050 exists');
      expect((await values(p)).filter((v) => v !== undefined)).toEqual(['live']);
      // A stored key that is not one of the bulk's, between its keys: passes.
      await write(store, {}, n);
      await write(store, { n050x: 'x' });
      await bulk(n, '3');
      // Deleted before the snapshot: passes; deleted after it (a tombstone newer than the snapshot): 1213.
      await write(store, {}, n);
      await bulk(n, '4');
      await write(store, {}, n);
      await write(store, { n077: 'brief' });
      await expectConflict(bulk(n, '5', () => write(store, {}, ['n077'])));
      expect((await values(n)).every((v) => v === undefined)).toBe(true);
    });

    it('an absent write of a key committed after the snapshot conflicts (1213)', async () => {
      const txns = createTxnStore(store);
      const txn = await txns.begin();
      expect(txn.putAbsent(b('race'), b('mine'))).toBe(true);
      await write(store, { race: 'theirs' });
      await expectConflict(txn.commit());
    });

    it('no partial apply on conflict', async () => {
      await write(store, { a: '0', b: '0', c: '0' });
      const snap = await store.snapshot();
      await write(store, { c: 'winner' });
      const muts: Mutation[] = ['a', 'b', 'c', 'd'].map((k) => ({ op: 'put', key: b(k), value: b('loser') }));
      await expectConflict(store.commit({ startTs: snap.startTs, mutations: muts, checkKeys: [] }));
      snap.release();
      const now = await store.snapshot();
      expect((await now.batchGet(['a', 'b', 'c', 'd'].map(b))).map(s)).toEqual(['0', '0', 'winner', undefined]);
      now.release();
    });

    it('scans forward and reverse with limits and bounds; tombstones hidden', async () => {
      const puts: Record<string, string> = {};
      for (let i = 0; i < 20; i++) puts[`k${String(i).padStart(2, '0')}`] = `v${i}`;
      await write(store, puts);
      await write(store, {}, ['k03', 'k04', 'k05', 'k06', 'k15']);
      const snap = await store.snapshot();
      const keys = async (start: string, end: string, limit: number, reverse = false): Promise<string[]> =>
        (await snap.scan({ start: b(start), end: b(end) }, { limit, reverse })).map((p) => s(p.key) as string);
      expect(await keys('k00', 'k10', 100)).toEqual(['k00', 'k01', 'k02', 'k07', 'k08', 'k09']);
      expect(await keys('k02', 'k10', 3)).toEqual(['k02', 'k07', 'k08']);
      expect(await keys('k00', 'k10', 3, true)).toEqual(['k09', 'k08', 'k07']);
      expect(await keys('k01', 'k08', 100, true)).toEqual(['k07', 'k02', 'k01']);
      expect(await keys('k14', 'k17', 10, true)).toEqual(['k16', 'k14']);
      expect(await keys('k10', 'k10', 10)).toEqual([]);
      expect(await keys('k11', 'k10', 10)).toEqual([]);
      expect(await keys('k19', 'z', 0)).toEqual([]);
      const all = await snap.scan({ start: new Uint8Array(0), end: b('\xff') }, { limit: 1000 });
      expect(all).toHaveLength(15);
      const allRev = await snap.scan({ start: new Uint8Array(0), end: b('k01') }, { limit: 10, reverse: true });
      expect(allRev.map((p) => s(p.key))).toEqual(['k00']);
      expect(s((all[0] as { value: Uint8Array }).value)).toBe('v0');
      snap.release();
    });

    it('stores large values (1 MiB)', async () => {
      const big = new Uint8Array(1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
      const snap0 = await store.snapshot();
      await store.commit({ startTs: snap0.startTs, mutations: [{ op: 'put', key: b('big'), value: big }], checkKeys: [] });
      snap0.release();
      const snap = await store.snapshot();
      const got = await snap.get(b('big'));
      expect(got?.length).toBe(big.length);
      expect(compareBytes(got as Uint8Array, big)).toBe(0);
      const scanned = await snap.scan({ start: b('b'), end: b('c') }, { limit: 1 });
      expect(compareBytes((scanned[0] as { value: Uint8Array }).value, big)).toBe(0);
      snap.release();
    });

    it('deleteRange removes [start, end) only', async () => {
      const puts: Record<string, string> = {};
      for (let i = 0; i < 2500; i++) puts[`t1_${String(i).padStart(5, '0')}`] = 'x';
      puts['t0'] = 'keep';
      puts['t2'] = 'keep';
      await write(store, puts);
      await store.deleteRange({ start: b('t1_'), end: b('t1`') });
      const snap = await store.snapshot();
      const rest = await snap.scan({ start: b('t'), end: b('u') }, { limit: 10_000 });
      expect(rest.map((p) => s(p.key))).toEqual(['t0', 't2']);
      snap.release();
    });

    it('reopen after close keeps committed data', async () => {
      const ts = await write(store, { durable: 'yes' });
      await write(store, {}, ['durable2']);
      await store.close();
      store = await space.open();
      const snap = await store.snapshot();
      expect(s(await snap.get(b('durable')))).toBe('yes');
      expect(snap.startTs).toBeGreaterThanOrEqual(ts);
      snap.release();
    });

    it('200 parallel non-conflicting commits all succeed', async () => {
      const results = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => write(store, { [`p${String(i).padStart(3, '0')}`]: String(i) })),
      );
      expect(new Set(results.map(String)).size).toBe(200);
      const snap = await store.snapshot();
      expect(await snap.scan({ start: b('p'), end: b('q') }, { limit: 1000 })).toHaveLength(200);
      snap.release();
    });

    it('50 parallel increments through TxnStore.update() end at exactly 50', async () => {
      const txns = createTxnStore(store);
      const key = b('counter');
      await Promise.all(
        Array.from({ length: 50 }, () =>
          txns.update(async (txn) => {
            const cur = await txn.get(key);
            txn.put(key, b(String(Number(s(cur) ?? '0') + 1)));
          }, 1000),
        ),
      );
      const final = await txns.view((txn) => txn.get(key));
      expect(s(final)).toBe('50');
    });

    it('matches an in-memory model under random operations', async () => {
      const keyArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
      const opArb = fc.oneof(
        fc.record({ t: fc.constant('put' as const), k: keyArb, v: fc.string({ maxLength: 4 }) }),
        fc.record({ t: fc.constant('del' as const), k: keyArb }),
        fc.record({ t: fc.constant('snap' as const) }),
        fc.record({ t: fc.constant('commit' as const), which: fc.nat(5) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
          await store.deleteRange({ start: b('a'), end: b('z') });
          const committed = new Map<string, { v: string | null; ts: bigint }>();
          const open: Array<{ snap: Awaited<ReturnType<Store['snapshot']>>; view: Map<string, string>; writes: Map<string, string | null> }> = [];
          const visible = (): Map<string, string> => {
            const m = new Map<string, string>();
            for (const [k, e] of committed) if (e.v !== null) m.set(k, e.v);
            return m;
          };
          open.push({ snap: await store.snapshot(), view: visible(), writes: new Map() });
          for (const op of ops) {
            const cur = open[open.length - 1];
            if (op.t === 'snap' || cur === undefined) {
              open.push({ snap: await store.snapshot(), view: visible(), writes: new Map() });
            } else if (op.t === 'put') cur.writes.set(op.k, op.v);
            else if (op.t === 'del') cur.writes.set(op.k, null);
            else {
              const t = open.splice(op.which % open.length, 1)[0];
              if (t === undefined) continue;
              const muts: Mutation[] = [...t.writes].map(([k, v]) =>
                v === null ? { op: 'del', key: b(k) } : { op: 'put', key: b(k), value: b(v) },
              );
              const conflict = [...t.writes.keys()].some((k) => (committed.get(k)?.ts ?? -1n) > t.snap.startTs);
              const p = store.commit({ startTs: t.snap.startTs, mutations: muts, checkKeys: [] });
              if (conflict) await expectConflict(p);
              else {
                const ts = await p;
                for (const [k, v] of t.writes) committed.set(k, { v, ts });
              }
              // the released snapshot still equals its model view until release
              const seen = await t.snap.scan({ start: b('a'), end: b('z') }, { limit: 100 });
              expect(seen.map((x) => [s(x.key), s(x.value)])).toEqual([...t.view].sort(([x], [y]) => (x < y ? -1 : 1)));
              t.snap.release();
            }
          }
          for (const t of open) t.snap.release();
          const last = await store.snapshot();
          const rev = await last.scan({ start: b('a'), end: b('z') }, { limit: 100, reverse: true });
          expect(rev.map((x) => [s(x.key), s(x.value)])).toEqual([...visible()].sort(([x], [y]) => (x < y ? 1 : -1)));
          last.release();
        }),
        { numRuns: 60 },
      );
    });
  });
}
