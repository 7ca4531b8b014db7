/**
 * etcd-specific behaviour of the etcd store, against real etcd members: URL parsing, the stored
 * byte format, GC (compaction below the cluster-wide safe point, tombstone removal, "snapshot
 * too old"), the --max-txn-ops error, snapshots that prefetch keys (snapshotWith), and failover
 * when the member in use dies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtcdStore, parseEtcdUrl } from '../../src/kv/etcd/index.js';
import { EtcdConnection } from '../../src/kv/etcd/connection.js';
import { decodeValue, encodeLive, Keyspace, tombstone } from '../../src/kv/etcd/keyspace.js';
import type { Mutation } from '../../src/kv/index.js';
import { SqlError } from '../../src/errors/index.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';

const te = new TextEncoder();
const b = (s: string): Uint8Array => te.encode(s);
const hex = (u: Uint8Array): string => Buffer.from(u).toString('hex');

describe('etcd URL and byte format', () => {
  it('parses endpoints and an optional namespace', () => {
    expect(parseEtcdUrl('etcd://127.0.0.1:2379,127.0.0.1:2479/db1')).toEqual({ endpoints: ['127.0.0.1:2379', '127.0.0.1:2479'], prefix: 'db1' });
    expect(parseEtcdUrl('etcd://h:1')).toEqual({ endpoints: ['h:1'], prefix: '' });
    expect(() => parseEtcdUrl('etcd:///x')).toThrow(/names no endpoint/);
    expect(() => parseEtcdUrl('etcd://h')).toThrow(/expected host:port/);
    expect(() => parseEtcdUrl('etcd://h:99999')).toThrow(/expected host:port/);
    expect(() => parseEtcdUrl('etcd://h:1/a/b')).toThrow(/bad etcd key prefix/);
  });

  it('matches the worked example in keyspace.ts', () => {
    const ks = new Keyspace('db1');
    const sqlKey = Uint8Array.from([0x74, 0x80, 0, 0, 0, 0, 0, 0, 0x2a]);
    expect(hex(ks.dataKey(sqlKey))).toBe('6462312f64' + '74800000000000002a');
    expect(hex(ks.userKey(ks.dataKey(sqlKey)))).toBe(hex(sqlKey));
    expect(hex(encodeLive(b('hi')))).toBe('016869');
    expect(hex(tombstone())).toBe('00');
    expect(decodeValue(tombstone())).toBeUndefined();
    expect(hex(decodeValue(encodeLive(b('hi'))) as Uint8Array)).toBe('6869');
    expect(hex(new Keyspace('').dataKey(b('k')))).toBe('646b');
  });
});

describe('etcd store on a real cluster', () => {
  let cluster: EtcdCluster;
  beforeAll(async () => {
    cluster = await startEtcd(3);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const put = async (store: EtcdStore, muts: Mutation[]): Promise<bigint> => {
    const snap = await store.snapshot();
    try {
      return await store.commit({ startTs: snap.startTs, mutations: muts, checkKeys: [] });
    } finally {
      snap.release();
    }
  };

  it('compacts below the oldest snapshot of any node and removes collected tombstones', async () => {
    const url = cluster.url();
    const gc = { intervalMs: 3_600_000, marginRevisions: 0 };
    const a = await EtcdStore.open(url, { gc });
    const other = await EtcdStore.open(url, { gc });
    const raw = new EtcdConnection(cluster.endpoints);
    const ks = new Keyspace(parseEtcdUrl(url).prefix);
    try {
      await put(a, [{ op: 'put', key: b('k'), value: b('v1') }, { op: 'put', key: b('d'), value: b('x') }]);
      const old = await other.snapshot();
      await put(a, [{ op: 'put', key: b('k'), value: b('v2') }]);
      await put(a, [{ op: 'del', key: b('d') }]);
      await other.collectGarbage(); // publishes old.startTs
      await a.collectGarbage();
      expect(new TextDecoder().decode(await old.get(b('k')))).toBe('v1'); // still readable
      const stillTomb = await raw.call('Range', { key: ks.dataKey(b('d')) }, { retry: 'idempotent' });
      expect(stillTomb.kvs.length).toBe(1); // tombstone kept: `old` may still need it
      old.release();
      await other.collectGarbage();
      await a.collectGarbage();
      const gone = await raw.call('Range', { key: ks.dataKey(b('d')) }, { retry: 'idempotent' });
      expect(gone.kvs.length).toBe(0);
      const fresh = await a.snapshot();
      expect(await fresh.get(b('d'))).toBeUndefined();
      expect(new TextDecoder().decode(await fresh.get(b('k')))).toBe('v2');
      fresh.release();

      // A snapshot whose revision an outside client compacts away fails with a retryable 1213.
      const stale = await a.snapshot();
      const head = await put(a, [{ op: 'put', key: b('k'), value: b('v3') }]);
      await raw.call('Compact', { revision: head.toString() }, { retry: 'idempotent' });
      const err = await stale.get(b('k')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SqlError);
      expect((err as SqlError).errno).toBe(1213);
      expect((err as SqlError).message).toMatch(/snapshot too old/);
      stale.release();
    } finally {
      raw.close();
      await a.close();
      await other.close();
    }
  });

  it('names --max-txn-ops when a write set exceeds it', async () => {
    const store = await EtcdStore.open(cluster.url());
    try {
      const muts: Mutation[] = [];
      for (let i = 0; i < 10_001; i++) muts.push({ op: 'put', key: b(`k${i}`), value: b('v') });
      const err = await put(store, muts).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SqlError);
      expect((err as SqlError).message).toMatch(/Transaction is too large: 10001 etcd operations exceed .*--max-txn-ops/);
      const snap = await store.snapshot();
      expect(await snap.get(b('k0'))).toBeUndefined(); // nothing applied
      snap.release();
    } finally {
      await store.close();
    }
  });

  it('snapshotWith reads its keys and the hot key with the start revision, then serves them from memory', async () => {
    const url = cluster.url();
    const hot = b('pf-hot');
    const a = await EtcdStore.open(url, { hotKey: hot });
    const other = await EtcdStore.open(url);
    const raw = new EtcdConnection(cluster.endpoints);
    const text = (v: Uint8Array | undefined): string | undefined => (v === undefined ? undefined : new TextDecoder().decode(v));
    try {
      // Committed through another node: a start revision must not predate it.
      const written = await put(other, [
        { op: 'put', key: hot, value: b('7') },
        { op: 'put', key: b('pf-a'), value: b('a1') },
        { op: 'put', key: b('pf-b'), value: b('b1') },
        { op: 'put', key: b('pf-c'), value: b('c1') },
      ]);
      const snap = await a.snapshotWith([b('pf-a'), b('pf-b'), b('pf-missing')]);
      expect(snap.startTs).toBeGreaterThanOrEqual(written);
      const later = await put(other, [{ op: 'put', key: b('pf-a'), value: b('a2') }]);
      // Compacting past the snapshot's revision makes every read of it fail from etcd ...
      await raw.call('Compact', { revision: later.toString() }, { retry: 'idempotent' });
      const err = await snap.get(b('pf-c')).catch((e: unknown) => e);
      expect((err as SqlError).errno).toBe(1213);
      // ... but the keys read with the start revision still answer, with their values at it.
      expect(text(await snap.get(b('pf-a')))).toBe('a1');
      expect(text(await snap.get(hot))).toBe('7');
      expect(await snap.get(b('pf-missing'))).toBeUndefined();
      expect((await snap.batchGet([b('pf-b'), b('pf-a')])).map(text)).toEqual(['b1', 'a1']);
      snap.release();
      const fresh = await a.snapshotWith([b('pf-a')]);
      expect(fresh.startTs).toBeGreaterThanOrEqual(later);
      expect(text(await fresh.get(b('pf-a')))).toBe('a2');
      expect(text(await fresh.get(b('pf-c')))).toBe('c1'); // not prefetched: read at the start revision
      fresh.release();

      // Starts asked for together share requests (start-ts.ts); each still gets the keys it named.
      const many = await Promise.all([a.snapshotWith([b('pf-b')]), a.snapshot(), a.snapshotWith([b('pf-c'), b('pf-a')]), a.snapshotWith([b('pf-b')])]);
      const head = await put(other, [{ op: 'put', key: b('pf-b'), value: b('b2') }]);
      await raw.call('Compact', { revision: head.toString() }, { retry: 'idempotent' });
      expect(text(await many[0]?.get(b('pf-b')))).toBe('b1');
      expect(text(await many[1]?.get(hot))).toBe('7');
      expect((await many[2]?.batchGet([b('pf-a'), b('pf-c')]))?.map(text)).toEqual(['a2', 'c1']);
      expect(text(await many[3]?.get(b('pf-b')))).toBe('b1');
      for (const s of many) s.release();
    } finally {
      raw.close();
      await a.close();
      await other.close();
    }
  });

  it('keeps serving after the member in use is killed', async () => {
    const store = await EtcdStore.open(cluster.url());
    try {
      await put(store, [{ op: 'put', key: b('n'), value: b('0') }]);
      const victim = cluster.members.find((m) => store.currentEndpoint().endsWith(`:${m.clientPort}`));
      expect(victim).toBeDefined();
      await victim?.kill();
      let done = false;
      for (let attempt = 0; attempt < 20 && !done; attempt++) {
        try {
          await put(store, [{ op: 'put', key: b('n'), value: b('1') }]);
          done = true;
        } catch (err) {
          // An in-flight commit to the dead member has an unknown outcome (1180); elections
          // take a moment. Anything else is a failure.
          if (!(err instanceof SqlError) || ![1180, 1105].includes(err.errno)) throw err;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      expect(done).toBe(true);
      expect(store.currentEndpoint()).not.toBe(`127.0.0.1:${victim?.clientPort}`);
      const snap = await store.snapshot();
      expect(new TextDecoder().decode(await snap.get(b('n')))).toBe('1');
      snap.release();
      await victim?.restart();
    } finally {
      await store.close();
    }
  });
});
