import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import type { CommitRequest, KeyRun, Mutation, Store } from '../../src/kv/index.js';
import { openStore } from '../../src/kv/index.js';
import { createTxnStore, type TxnStore } from '../../src/txn/index.js';
import { utf8Decode, utf8Encode } from '../../src/util/index.js';
import { tempDir } from '../kv/backends.js';

const b = (s: string): Uint8Array => utf8Encode(s);
const s = (v: Uint8Array | undefined): string | undefined => (v === undefined ? undefined : utf8Decode(v));
/** `kv` with its snapshots stripped of getNow (and without snapshotNow), like a remote store's. */
function withoutSyncReads(kv: Store): Store {
  return {
    url: kv.url,
    snapshot: async () => {
      const inner = await kv.snapshot();
      return {
        startTs: inner.startTs,
        get: (k) => inner.get(k),
        batchGet: (k) => inner.batchGet(k),
        scan: (r, o) => inner.scan(r, o),
        release: () => inner.release(),
      };
    },
    commit: (r) => kv.commit(r),
    deleteRange: (r) => kv.deleteRange(r),
    close: () => Promise.resolve(),
  };
}

const k2 = (i: number): string => `k${String(i).padStart(2, '0')}`;

describe('txn over the embedded store', () => {
  let dir: string;
  let kv: Store;
  let txns: TxnStore;
  beforeEach(async () => {
    dir = tempDir('shale-txn-');
    kv = await openStore(dir);
    txns = createTxnStore(kv);
  });
  afterEach(async () => {
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function seed(keys: string[]): Promise<void> {
    await txns.update(async (txn) => {
      for (const k of keys) txn.put(b(k), b(`snap-${k}`));
    });
  }

  it('read-your-writes for get and batchGet', async () => {
    await seed(['a', 'b']);
    const txn = await txns.begin();
    txn.put(b('a'), b('mine'));
    txn.delete(b('b'));
    txn.put(b('c'), b('new'));
    expect(s(await txn.get(b('a')))).toBe('mine');
    expect(await txn.get(b('b'))).toBeUndefined();
    expect((await txn.batchGet([b('c'), b('b'), b('a'), b('zz')])).map(s)).toEqual(['new', undefined, 'mine', undefined]);
    expect(txn.writeCount).toBe(3);
    // getNow answers the same without a promise (the embedded snapshot reads synchronously)
    expect(s(txn.getNow(b('a')) ?? undefined)).toBe('mine');
    expect(txn.getNow(b('b'))).toBeUndefined();
    expect(s(txn.getNow(b('c')) ?? undefined)).toBe('new');
    expect(txn.getNow(b('zz'))).toBeUndefined();
    txn.rollback();
    expect(txn.finished).toBe(true);
  });

  it('commitRun commits a key run on its own from the snapshot and leaves the transaction as it was', async () => {
    await seed(['a', 'b']);
    const parent = await txns.begin();
    parent.put(b('p'), b('parent only'));
    await txns.update(async (txn) => {
      txn.put(b('b'), b('changed after the snapshot'));
    });
    /** A run putting one-letter keys `letters` (ascending) with one value. */
    const run = (letters: string): KeyRun => ({ prefix: new Uint8Array(0), records: b(letters), width: 1, order: Uint32Array.from(letters, (_, i) => i), from: 0, to: letters.length, value: b('from a run') });
    await parent.commitRun(run('ac')); // neither was written since the snapshot
    await expect(parent.commitRun(run('bd'))).rejects.toMatchObject({ errno: 1213 }); // b was
    expect(s(await parent.get(b('a')))).toBe('snap-a'); // still the parent's snapshot
    expect(s(await parent.get(b('p')))).toBe('parent only');
    parent.rollback();
    expect(s(await txns.view((txn) => txn.get(b('a'))))).toBe('from a run');
    expect(s(await txns.view((txn) => txn.get(b('c'))))).toBe('from a run');
    expect(await txns.view((txn) => txn.get(b('d')))).toBeUndefined(); // nothing of the failed run
    expect(await txns.view((txn) => txn.get(b('p')))).toBeUndefined();
  });

  it('getNow falls back to null (use get) over a snapshot without getNow', async () => {
    await seed(['a']);
    const plain = createTxnStore(withoutSyncReads(kv));
    const txn = await plain.begin();
    expect(plain.beginNow?.()).toBeUndefined();
    expect(txn.getNow(b('a'))).toBeNull();
    txn.put(b('a'), b('buffered'));
    expect(s(txn.getNow(b('a')) ?? undefined)).toBe('buffered'); // buffered writes need no snapshot
    expect(s(await txn.get(b('a')))).toBe('buffered');
    txn.rollback();
  });

  it('scans merge buffered puts/deletes with the snapshot, forward and reverse, with limits', async () => {
    await seed(Array.from({ length: 30 }, (_, i) => k2(i)));
    const txn = await txns.begin();
    for (let i = 5; i < 25; i++) txn.delete(b(k2(i))); // hides a long run of snapshot keys
    txn.put(b(k2(10)), b('mine-10'));
    txn.put(b('k10a'), b('ins'));
    txn.put(b(k2(0)), b('mine-0'));
    const keys = async (limit: number, reverse = false, start = 'k', end = 'l'): Promise<string[]> =>
      (await txn.scan({ start: b(start), end: b(end) }, { limit, reverse })).map((p) => s(p.key) as string);
    const expected = ['k00', 'k01', 'k02', 'k03', 'k04', 'k10', 'k10a', 'k25', 'k26', 'k27', 'k28', 'k29'];
    expect(await keys(100)).toEqual(expected);
    expect(await keys(7)).toEqual(expected.slice(0, 7));
    expect(await keys(100, true)).toEqual([...expected].reverse());
    expect(await keys(3, true)).toEqual(['k29', 'k28', 'k27']);
    expect(await keys(6, true)).toEqual(['k29', 'k28', 'k27', 'k26', 'k25', 'k10a']);
    expect(await keys(2, false, 'k05')).toEqual(['k10', 'k10a']);
    expect(await keys(2, true, 'k00', 'k25')).toEqual(['k10a', 'k10']);
    const vals = await txn.scan({ start: b('k00'), end: b('k11') }, { limit: 10 });
    expect(vals.map((p) => s(p.value))).toEqual(['mine-0', 'snap-k01', 'snap-k02', 'snap-k03', 'snap-k04', 'mine-10', 'ins']);
    txn.rollback();
  });

  it('scan pages past more buffered deletes than the page extra cap', async () => {
    const keys = Array.from({ length: 3000 }, (_, i) => `r${String(i).padStart(5, '0')}`);
    await seed(keys);
    const txn = await txns.begin();
    for (let i = 0; i < 2990; i++) txn.delete(b(keys[i] as string));
    const fwd = await txn.scan({ start: b('r'), end: b('s') }, { limit: 5 });
    expect(fwd.map((p) => s(p.key))).toEqual(keys.slice(2990, 2995));
    txn.rollbackTo(0);
    for (let i = 10; i < 3000; i++) txn.delete(b(keys[i] as string));
    const rev = await txn.scan({ start: b('r'), end: b('s') }, { limit: 5, reverse: true });
    expect(rev.map((p) => s(p.key))).toEqual(keys.slice(5, 10).reverse());
    txn.rollback();
  });

  it('checkpoint / rollbackTo undo puts, deletes and locks after the mark', async () => {
    await seed(['a', 'b']);
    const txn = await txns.begin();
    txn.put(b('a'), b('1'));
    const cp = txn.checkpoint();
    txn.put(b('a'), b('2'));
    txn.delete(b('b'));
    txn.put(b('c'), b('3'));
    txn.lockKeys([b('locked')]);
    expect(txn.writeCount).toBe(3);
    txn.rollbackTo(cp);
    expect(txn.writeCount).toBe(1);
    expect(s(await txn.get(b('a')))).toBe('1');
    expect(s(await txn.get(b('b')))).toBe('snap-b');
    expect(await txn.get(b('c'))).toBeUndefined();
    const scanned = await txn.scan({ start: b('a'), end: b('z') }, { limit: 10 });
    expect(scanned.map((p) => [s(p.key), s(p.value)])).toEqual([['a', '1'], ['b', 'snap-b']]);
    // the rolled-back lock must not make this commit conflict
    await txns.update(async (t) => t.put(b('locked'), b('x')));
    await txn.commit();
    const after = await txns.view((t) => t.batchGet([b('a'), b('b'), b('c')]));
    expect(after.map(s)).toEqual(['1', 'snap-b', undefined]);
  });

  it('buffer matches a model under random puts/deletes/checkpoints', async () => {
    await seed(['a', 'c', 'e']);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ t: fc.constant('put' as const), k: fc.constantFrom('a', 'b', 'c', 'd', 'e'), v: fc.string({ maxLength: 3 }) }),
            fc.record({ t: fc.constant('del' as const), k: fc.constantFrom('a', 'b', 'c', 'd', 'e') }),
            fc.record({ t: fc.constant('new' as const), k: fc.constantFrom('a', 'b', 'c', 'd', 'e'), v: fc.string({ maxLength: 3 }) }),
            fc.record({ t: fc.constant('absent' as const), k: fc.constantFrom('a', 'b', 'c', 'd', 'e'), v: fc.string({ maxLength: 3 }) }),
            fc.record({ t: fc.constant('cp' as const) }),
            fc.record({ t: fc.constant('undo' as const) }),
            fc.record({ t: fc.constant('scan' as const), limit: fc.integer({ min: 1, max: 6 }), reverse: fc.boolean() }),
          ),
          { maxLength: 30 },
        ),
        async (ops) => {
          const txn = await txns.begin();
          let model = new Map<string, string>([['a', 'snap-a'], ['c', 'snap-c'], ['e', 'snap-e']]);
          // Keys with a buffered write, by their last write: putNew and putAbsent take only keys
          // not given to either before (their promise); putAbsent over a buffered put is refused.
          let written = new Map<string, 'put' | 'del' | 'new' | 'absent'>();
          const marks: Array<{ cp: number; model: Map<string, string>; written: Map<string, 'put' | 'del' | 'new' | 'absent'> }> = [];
          const promised = (k: string): boolean => written.get(k) === 'new' || written.get(k) === 'absent';
          for (const op of ops) {
            if (op.t === 'put' || (op.t === 'new' && !written.has(op.k))) {
              if (op.t === 'new') txn.putNew(b(op.k), b(op.v));
              else txn.put(b(op.k), b(op.v));
              model.set(op.k, op.v);
              written.set(op.k, op.t);
            } else if (op.t === 'absent' && !promised(op.k)) {
              const refused = written.get(op.k) === 'put';
              expect(txn.putAbsent(b(op.k), b(op.v))).toBe(!refused);
              if (!refused) {
                model.set(op.k, op.v);
                written.set(op.k, 'absent');
              }
            } else if (op.t === 'del') {
              txn.delete(b(op.k));
              model.delete(op.k);
              written.set(op.k, 'del');
            } else if (op.t === 'cp') marks.push({ cp: txn.checkpoint(), model: new Map(model), written: new Map(written) });
            else if (op.t === 'undo') {
              const m = marks.pop();
              if (m !== undefined) {
                txn.rollbackTo(m.cp);
                model = m.model;
                written = m.written;
              }
            } else if (op.t === 'scan') {
              const got = await txn.scan({ start: b('a'), end: b('f') }, { limit: op.limit, reverse: op.reverse });
              const want = [...model].sort(([x], [y]) => (x < y ? -1 : 1));
              if (op.reverse) want.reverse();
              expect(got.map((p) => [s(p.key), s(p.value)])).toEqual(want.slice(0, op.limit));
            }
          }
          txn.rollback();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('putAbsent keys under a few locks commit as mapped ones would: written keys are not also lock-only checks', async () => {
    const sent: CommitRequest[] = [];
    const spy = createTxnStore({ ...kv, url: kv.url, snapshot: () => kv.snapshot(), commit: (r) => (sent.push(r), kv.commit(r)) });
    const txn = await spy.begin();
    txn.lockKeys([b('k1'), b('k3')]);
    expect(txn.putAbsent(b('k1'), b('1'))).toBe(true);
    expect(txn.putAbsent(b('k2'), b('2'))).toBe(true);
    await txn.commit();
    const req = sent[0];
    expect(req?.mutations.map((m) => `${s(m.key)}${m.derived === true ? ' derived' : ''}${m.absent === true ? ' absent' : ''}`).sort()).toEqual(['k1 absent', 'k2 absent']);
    expect(req?.checkKeys.map(s)).toEqual(['k3']);
    expect(await txns.view(async (t) => (await t.batchGet(['k1', 'k2'].map(b))).map(s))).toEqual(['1', '2']);
    // A key locked, then given to putAbsent, then written by another transaction: the commit conflicts.
    const late = await spy.begin();
    late.lockKeys([b('k4')]);
    late.putAbsent(b('k4'), b('mine'));
    await txns.update(async (t) => t.put(b('k4'), b('theirs')));
    await expect(late.commit()).rejects.toMatchObject({ errno: 1213 });
  });

  it('putNew keys are read back, committed and checked like put keys; a broken promise throws', async () => {
    await seed(['n2']);
    const sent: Mutation[][] = [];
    const spy = createTxnStore({ ...kv, url: kv.url, snapshot: () => kv.snapshot(), commit: (r) => (sent.push([...r.mutations]), kv.commit(r)) });
    const txn = await spy.begin();
    txn.putNew(b('n1'), b('1'));
    txn.putNew(b('n2'), b('2'));
    txn.putNew(b('n3'), b('3'));
    expect(txn.writeCount).toBe(3);
    expect(s(await txn.get(b('n2')))).toBe('2');
    txn.lockKeys([b('n3')]);
    txn.putNew(b('n4'), b('4'));
    await txn.commit();
    expect(sent[0]?.map((m) => `${s(m.key)}=${m.op === 'put' ? s(m.value) : 'del'}${m.derived === true ? ' derived' : ''}`).sort()).toEqual(['n1=1', 'n2=2', 'n3=3', 'n4=4']);
    expect(await txns.view(async (t) => (await t.batchGet(['n1', 'n2', 'n3', 'n4'].map(b))).map(s))).toEqual(['1', '2', '3', '4']);

    const late = await txns.begin();
    late.putNew(b('n1'), b('again'));
    await txns.update(async (t) => t.put(b('n1'), b('changed')));
    await expect(late.commit()).rejects.toMatchObject({ errno: 1213 });

    const broken = await txns.begin();
    broken.put(b('x'), b('1'));
    broken.putNew(b('x'), b('2'));
    expect(() => broken.get(b('x'))).toThrow(/a key the buffer already held/);
    broken.rollback();
  });

  it('putAbsent over a store that does not check absent keys: read at the snapshot before the commit', async () => {
    await seed(['taken']);
    const plain = createTxnStore(withoutSyncReads(kv));
    const txn = await plain.begin();
    expect(txn.putAbsent(b('taken'), b('mine'))).toBe(true);
    expect(txn.putAbsent(b('free'), b('mine'))).toBe(true);
    txn.onExistingKey((key) => new Error(`exists: ${s(key)}`));
    await expect(txn.commit()).rejects.toThrow('exists: taken');
    expect(await txns.view(async (t) => (await t.batchGet([b('taken'), b('free')])).map(s))).toEqual(['snap-taken', undefined]);
    await plain.update(async (t) => void t.putAbsent(b('free'), b('mine')));
    expect(await txns.view(async (t) => s(await t.get(b('free'))))).toBe('mine');
  });

  it('lockKeys makes the commit conflict when a locked key changed', async () => {
    await seed(['guard']);
    const txn = await txns.begin();
    txn.lockKeys([b('guard')]);
    txn.put(b('payload'), b('1'));
    await txns.update(async (t) => t.put(b('guard'), b('changed')));
    await expect(txn.commit()).rejects.toMatchObject({ errno: 1213 });
    expect(txn.finished).toBe(true);
    expect(await txns.view((t) => t.get(b('payload')))).toBeUndefined();
  });

  it('sends a key as derived only while every write of it was derived and it is not locked; rollback restores it', async () => {
    const sent: Mutation[][] = [];
    const spy = createTxnStore({ ...kv, url: kv.url, snapshot: () => kv.snapshot(), commit: (r) => (sent.push([...r.mutations]), kv.commit(r)) });
    const txn = await spy.begin();
    txn.put(b('d1'), b('v'), true);
    txn.delete(b('d2'), true);
    txn.put(b('mixed'), b('v'), true);
    txn.put(b('mixed'), b('w'));
    txn.put(b('locked'), b('v'), true);
    txn.lockKeys([b('locked')]);
    txn.put(b('plain'), b('v'));
    const cp = txn.checkpoint();
    txn.delete(b('d1'));
    txn.rollbackTo(cp);
    await txn.commit();
    const flags = Object.fromEntries((sent[0] ?? []).map((m) => [s(m.key), `${m.op}${m.derived === true ? ' derived' : ''}`]));
    expect(flags).toEqual({ d1: 'put derived', d2: 'del derived', mixed: 'put', locked: 'put', plain: 'put' });
  });

  describe('current reads', () => {
    for (const sync of [true, false]) {
      it(`read the latest state and narrow the conflict window (${sync ? 'snapshotNow' : 'async snapshot'})`, async () => {
        const store = createTxnStore(sync ? kv : withoutSyncReads(kv));
        await seed(['a', 'b', 'c']);
        const txn = await store.begin();
        const startTs = txn.startTs;
        expect(s(await txn.get(b('a')))).toBe('snap-a');
        await txns.update(async (t) => {
          t.put(b('a'), b('a1'));
          t.put(b('b'), b('b1'));
          t.put(b('c'), b('c1'));
        });
        expect(s(await txn.get(b('a')))).toBe('snap-a');
        await txn.beginCurrentRead();
        expect(txn.startTs).toBeGreaterThan(startTs);
        expect(s(await txn.get(b('a')))).toBe('a1');
        expect((await txn.batchGet([b('b')])).map(s)).toEqual(['b1']);
        txn.put(b('a'), b('a2'));
        txn.lockKeys([b('b')]);
        expect((await txn.scan({ start: b('a'), end: b('d') }, { limit: 10 })).map((p) => s(p.value))).toEqual(['a2', 'b1', 'c1']);
        txn.endCurrentRead();
        expect(txn.startTs).toBe(startTs);
        expect(s(await txn.get(b('c')))).toBe('snap-c');
        expect(s(await txn.get(b('a')))).toBe('a2');
        await txn.commit();
        expect(await txns.view(async (t) => s(await t.get(b('a'))))).toBe('a2');
      });
    }

    it('a commit after the current read still conflicts, for written and locked keys', async () => {
      await seed(['a', 'b']);
      for (const key of ['a', 'b']) {
        const txn = await txns.begin();
        await txns.update(async (t) => t.put(b('x'), b('unrelated')));
        await txn.beginCurrentRead();
        txn.put(b('a'), b('mine'));
        txn.lockKeys([b('b')]);
        txn.endCurrentRead();
        await txns.update(async (t) => t.put(b(key), b('theirs')));
        await expect(txn.commit()).rejects.toMatchObject({ errno: 1213 });
      }
    });

    it('a key keeps its earliest check base: written or locked at the snapshot, then again in a current read', async () => {
      await seed(['a', 'b']);
      for (const first of ['write', 'lock'] as const) {
        const txn = await txns.begin();
        if (first === 'write') txn.put(b('a'), b('early'));
        else txn.lockKeys([b('a')]);
        await txns.update(async (t) => t.put(b('a'), b(`theirs-${first}`)));
        await txn.beginCurrentRead();
        txn.put(b('a'), b('late'));
        txn.endCurrentRead();
        await expect(txn.commit()).rejects.toMatchObject({ errno: 1213 });
      }
    });

    it('with nothing committed since the snapshot, a current read stays on it', async () => {
      await seed(['a']);
      const txn = await txns.begin();
      const startTs = txn.startTs;
      await txn.beginCurrentRead();
      expect(txn.startTs).toBe(startTs);
      txn.endCurrentRead();
      txn.rollback();
    });
  });

  it('read-only commit just releases; the txn is finished after commit', async () => {
    await seed(['a']);
    const txn = await txns.begin();
    expect(s(await txn.get(b('a')))).toBe('snap-a');
    await txn.commit();
    expect(txn.finished).toBe(true);
    expect(() => txn.put(b('x'), b('y'))).toThrow();
    txn.rollback(); // idempotent after finish
  });

  it('update() retries conflicts, rolls back on other errors; view() always releases', async () => {
    await expect(
      txns.update(async (txn) => {
        txn.put(b('never'), b('x'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await txns.view((t) => t.get(b('never')))).toBeUndefined();
    let attempts = 0;
    const result = await txns.update(async (txn) => {
      attempts++;
      await txn.get(b('hot'));
      if (attempts === 1) await txns.update(async (t) => t.put(b('hot'), b('other')));
      txn.put(b('hot'), b('mine'));
      return attempts;
    });
    expect(result).toBe(2);
    expect(s(await txns.view((t) => t.get(b('hot'))))).toBe('mine');
    await expect(
      txns.update(async (txn) => {
        txn.put(b('hot'), b('loser'));
        await txns.update(async (t) => t.put(b('hot'), b('winner')));
      }, 0),
    ).rejects.toMatchObject({ errno: 1213 });
  });
});
