/**
 * Test-only in-memory MVCC store + transactions implementing src/kv/kv.ts Store and
 * src/txn/types.ts TxnStore (snapshot isolation, first committer wins on written and locked keys).
 */
import { SqlError } from '../../src/errors/index.js';
import { mapPairs, type CommitRequest, type KeyRange, type KvPair, type MappedPage, type PairMapper, type ScanOptions, type Snapshot, type Store } from '../../src/kv/kv.js';
import { runMutations, type KeyRun } from '../../src/kv/key-run.js';
import type { Txn, TxnStore } from '../../src/txn/types.js';
import { compareBytes, toHex } from '../../src/util/index.js';

interface Version {
  readonly ts: bigint;
  readonly value: Uint8Array | undefined;
}

export class MemStore implements Store {
  readonly url = 'mem://';
  private ts = 0n;
  private readonly data = new Map<string, { key: Uint8Array; versions: Version[] }>();
  commits = 0;

  async snapshot(): Promise<Snapshot> {
    const startTs = this.ts;
    return {
      startTs,
      get: async (key) => this.read(key, startTs),
      batchGet: async (keys) => keys.map((k) => this.read(k, startTs)),
      scan: async (range, opts) => this.scanAt(range, opts, startTs),
      release: () => undefined,
    };
  }

  async commit(req: CommitRequest): Promise<bigint> {
    const checks = [
      ...req.mutations.map((m) => ({ key: m.key, since: m.since ?? req.startTs })),
      ...req.checkKeys.map((key) => ({ key, since: req.startTs })),
      ...(req.laterChecks ?? []),
    ];
    for (const { key, since } of checks) {
      const last = this.data.get(toHex(key))?.versions.at(-1);
      if (last !== undefined && last.ts > since) throw SqlError.of('ER_LOCK_DEADLOCK');
    }
    const ts = ++this.ts;
    for (const m of req.mutations) this.write(m.key, ts, m.op === 'put' ? m.value.slice() : undefined);
    this.commits++;
    return ts;
  }

  async deleteRange(range: KeyRange): Promise<void> {
    const ts = ++this.ts;
    for (const e of this.data.values()) {
      if (compareBytes(e.key, range.start) >= 0 && compareBytes(e.key, range.end) < 0) this.write(e.key, ts, undefined);
    }
  }

  async close(): Promise<void> {}

  /** Number of live keys in [start, end) at the latest state. */
  countLive(range: KeyRange): number {
    return this.scanAt(range, { limit: Number.MAX_SAFE_INTEGER }, this.ts).length;
  }

  private write(key: Uint8Array, ts: bigint, value: Uint8Array | undefined): void {
    const hex = toHex(key);
    let e = this.data.get(hex);
    if (e === undefined) this.data.set(hex, (e = { key: key.slice(), versions: [] }));
    e.versions.push({ ts, value });
  }

  private read(key: Uint8Array, ts: bigint): Uint8Array | undefined {
    const versions = this.data.get(toHex(key))?.versions ?? [];
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i] as Version;
      if (v.ts <= ts) return v.value?.slice();
    }
    return undefined;
  }

  private scanAt(range: KeyRange, opts: ScanOptions, ts: bigint): KvPair[] {
    const out: KvPair[] = [];
    for (const e of this.data.values()) {
      if (compareBytes(e.key, range.start) < 0 || compareBytes(e.key, range.end) >= 0) continue;
      const value = this.read(e.key, ts);
      if (value !== undefined) out.push({ key: e.key.slice(), value });
    }
    out.sort((a, b) => compareBytes(a.key, b.key));
    if (opts.reverse === true) out.reverse();
    return out.slice(0, opts.limit);
  }
}

type Op = { kind: 'put' | 'del'; key: Uint8Array; value?: Uint8Array } | { kind: 'lock'; keys: Uint8Array[] };

class MemTxn implements Txn {
  private ops: Op[] = [];
  finished = false;

  constructor(
    private readonly store: Store,
    private readonly snap: Snapshot,
  ) {}

  get startTs(): bigint {
    return this.snap.startTs;
  }

  get writeCount(): number {
    return this.buffer().size;
  }

  readonly writeBytes = 0;

  limitWrites(): void {
    // Unlimited: the catalog tests never buffer large transactions.
  }

  private buffer(): Map<string, { key: Uint8Array; value: Uint8Array | undefined }> {
    const m = new Map<string, { key: Uint8Array; value: Uint8Array | undefined }>();
    for (const op of this.ops) if (op.kind !== 'lock') m.set(toHex(op.key), { key: op.key, value: op.value });
    return m;
  }

  /** Always answered by get() (the async path). */
  getNow(): null {
    return null;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const b = this.buffer().get(toHex(key));
    return b !== undefined ? b.value : this.snap.get(key);
  }

  async batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    return Promise.all(keys.map((k) => this.get(k)));
  }

  async scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
    return mapPairs(await this.scan(range, opts), map, opts.limit);
  }

  async scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    const merged = new Map<string, KvPair>();
    for (const p of await this.snap.scan(range, { limit: Number.MAX_SAFE_INTEGER })) merged.set(toHex(p.key), p);
    for (const [hex, b] of this.buffer()) {
      if (compareBytes(b.key, range.start) < 0 || compareBytes(b.key, range.end) >= 0) continue;
      if (b.value === undefined) merged.delete(hex);
      else merged.set(hex, { key: b.key, value: b.value });
    }
    const out = [...merged.values()].sort((a, b) => compareBytes(a.key, b.key));
    if (opts.reverse === true) out.reverse();
    return out.slice(0, opts.limit);
  }

  putNew(key: Uint8Array, value: Uint8Array): void {
    this.put(key, value);
  }

  /** Checks this transaction's writes only (the catalog tests store no generated ids). */
  putAbsent(key: Uint8Array, value: Uint8Array): boolean {
    if (this.buffer().get(toHex(key))?.value !== undefined) return false;
    this.put(key, value);
    return true;
  }

  onExistingKey(): void {
    // Nothing reaches commit as a KeyExistsError here.
  }

  put(key: Uint8Array, value: Uint8Array): void {
    this.ops.push({ kind: 'put', key: key.slice(), value: value.slice() });
  }

  delete(key: Uint8Array): void {
    this.ops.push({ kind: 'del', key: key.slice() });
  }

  lockKeys(keys: readonly Uint8Array[]): void {
    this.ops.push({ kind: 'lock', keys: keys.map((k) => k.slice()) });
  }

  /** Current reads stay on the snapshot here: stricter than KvTxn (more conflicts), never looser. */
  beginCurrentRead(): undefined {
    return undefined;
  }

  endCurrentRead(): void {}

  checkpoint(): number {
    return this.ops.length;
  }

  rollbackTo(cp: number): void {
    this.ops = this.ops.slice(0, cp);
  }

  async commit(): Promise<void> {
    this.finished = true;
    const mutations = [...this.buffer().values()].map((b) =>
      b.value === undefined ? { op: 'del' as const, key: b.key } : { op: 'put' as const, key: b.key, value: b.value },
    );
    const checkKeys = this.ops.flatMap((op) => (op.kind === 'lock' ? op.keys : []));
    this.snap.release();
    if (mutations.length === 0 && checkKeys.length === 0) return;
    await this.store.commit({ startTs: this.snap.startTs, mutations, checkKeys });
  }

  rollback(): void {
    this.finished = true;
    this.snap.release();
  }

  async commitRun(run: KeyRun): Promise<void> {
    await this.store.commit({ startTs: this.snap.startTs, mutations: runMutations(run), checkKeys: [] });
  }
}

export function memTxnStore(kv: Store = new MemStore()): TxnStore {
  const begin = async (): Promise<Txn> => new MemTxn(kv, await kv.snapshot());
  return {
    kv,
    begin,
    async update<T>(fn: (txn: Txn) => Promise<T>, retries = 10): Promise<T> {
      for (let attempt = 0; ; attempt++) {
        const txn = await begin();
        try {
          const result = await fn(txn);
          await txn.commit();
          return result;
        } catch (err) {
          txn.rollback();
          if (!(err instanceof SqlError && err.errno === 1213) || attempt >= retries) throw err;
          await new Promise((r) => setTimeout(r, Math.random() * 3));
        }
      }
    },
    async view<T>(fn: (txn: Txn) => Promise<T>): Promise<T> {
      const txn = await begin();
      try {
        return await fn(txn);
      } finally {
        txn.rollback();
      }
    },
  };
}
