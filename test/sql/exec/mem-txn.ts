/**
 * Test double: an in-memory TxnStore (sorted Map, snapshot = copy at begin, buffered writes
 * with read-your-writes, commit applies the buffer; no conflict detection). Like a real store,
 * startTs counts the commits it sees (the catalog reads the schema version once per startTs).
 */
import type { KeyRange, KvPair, MappedPage, PairMapper, ScanOptions, Store } from '../../../src/kv/kv.js';
import { runMutations, type KeyRun } from '../../../src/kv/key-run.js';
import type { Txn, TxnStore } from '../../../src/txn/types.js';
import { compareBytes } from '../../../src/util/index.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

export class MemTxnStore implements TxnStore {
  readonly data = new Map<string, { key: Uint8Array; value: Uint8Array }>();
  readonly kv = {} as Store;
  gets = 0;
  scans = 0;
  batchGets = 0;
  /** Commits with writes so far: the startTs of the next transaction. */
  commits = 0n;

  begin(): Promise<Txn> {
    return Promise.resolve(new MemTxn(this, new Map(this.data), this.commits));
  }

  async update<T>(fn: (txn: Txn) => Promise<T>): Promise<T> {
    const txn = await this.begin();
    try {
      const out = await fn(txn);
      await txn.commit();
      return out;
    } catch (e) {
      txn.rollback();
      throw e;
    }
  }

  async view<T>(fn: (txn: Txn) => Promise<T>): Promise<T> {
    const txn = await this.begin();
    try {
      return await fn(txn);
    } finally {
      txn.rollback();
    }
  }
}

type Entry = { key: Uint8Array; value: Uint8Array | undefined };

class MemTxn implements Txn {
  finished = false;
  readonly locked: Uint8Array[] = [];
  private log: Array<[string, Entry | undefined]> = [];
  private readonly buffer = new Map<string, Entry>();

  constructor(
    private readonly store: MemTxnStore,
    private readonly snap: Map<string, { key: Uint8Array; value: Uint8Array }>,
    readonly startTs: bigint,
  ) {}

  get writeCount(): number {
    return this.buffer.size;
  }

  readonly writeBytes = 0;

  limitWrites(): void {
    // Unlimited: the executor tests never buffer large transactions.
  }

  /** Always answered by get() (the async path). */
  getNow(): null {
    return null;
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.store.gets++;
    return Promise.resolve(this.read(key));
  }

  private read(key: Uint8Array): Uint8Array | undefined {
    const k = hex(key);
    const b = this.buffer.get(k);
    if (b !== undefined) return b.value;
    return this.snap.get(k)?.value;
  }

  batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    this.store.batchGets++;
    return Promise.resolve(keys.map((k) => this.read(k)));
  }

  /**
   * Like the embedded store, hands `map` offsets into borrowed memory: each pair is copied into
   * one scratch buffer that is overwritten after the call, so a row that kept a view would read
   * garbage.
   */
  async scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
    const pairs = await this.scan(range, opts);
    const items = new Array<T>(pairs.length);
    for (let i = 0; i < pairs.length; i++) {
      const { key, value } = pairs[i] as KvPair;
      // Key and value at offsets inside one buffer with bytes around them, as a store's reused
      // read buffer would hand them out.
      const ks = 3;
      const vs = ks + key.length + 2;
      // A Buffer, as lmdb's are: its slice() is a view, so a decoder that "copies" with slice() fails here.
      const scratch = Buffer.alloc(vs + value.length + 5, 0xdd);
      scratch.set(key, ks);
      scratch.set(value, vs);
      items[i] = map(scratch, ks, ks + key.length, scratch, vs, vs + value.length);
      scratch.fill(0xee);
    }
    return { items, lastKey: pairs.length >= opts.limit ? pairs[pairs.length - 1]?.key : undefined };
  }

  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    this.store.scans++;
    const merged = new Map<string, Entry>();
    for (const [k, e] of this.snap) merged.set(k, e);
    for (const [k, e] of this.buffer) merged.set(k, e);
    const all = [...merged.values()]
      .filter((e): e is KvPair => e.value !== undefined && compareBytes(e.key, range.start) >= 0 && compareBytes(e.key, range.end) < 0)
      .sort((a, b) => compareBytes(a.key, b.key));
    if (opts.reverse === true) all.reverse();
    return Promise.resolve(all.slice(0, opts.limit));
  }

  putNew(key: Uint8Array, value: Uint8Array): void {
    this.put(key, value);
  }

  /** Checks this transaction's writes only; the in-memory commit does not check `absent`. */
  putAbsent(key: Uint8Array, value: Uint8Array): boolean {
    if (this.buffer.get(hex(key))?.value !== undefined) return false;
    this.put(key, value);
    return true;
  }

  onExistingKey(): void {
    // The in-memory commit raises no KeyExistsError.
  }

  put(key: Uint8Array, value: Uint8Array): void {
    this.write(key, value);
  }

  delete(key: Uint8Array): void {
    this.write(key, undefined);
  }

  private write(key: Uint8Array, value: Uint8Array | undefined): void {
    const k = hex(key);
    this.log.push([k, this.buffer.get(k)]);
    this.buffer.set(k, { key: key.slice(), value: value?.slice() });
  }

  lockKeys(keys: readonly Uint8Array[]): void {
    this.locked.push(...keys);
  }

  /** Reads stay on the copy taken at begin (this double checks no conflicts either). */
  beginCurrentRead(): undefined {
    return undefined;
  }

  endCurrentRead(): void {}

  checkpoint(): number {
    return this.log.length;
  }

  rollbackTo(cp: number): void {
    while (this.log.length > cp) {
      const [k, prev] = this.log.pop() as [string, Entry | undefined];
      if (prev === undefined) this.buffer.delete(k);
      else this.buffer.set(k, prev);
    }
  }

  commit(): Promise<void> {
    this.finished = true;
    if (this.buffer.size > 0) this.store.commits++;
    for (const [k, e] of this.buffer) {
      if (e.value === undefined) this.store.data.delete(k);
      else this.store.data.set(k, { key: e.key, value: e.value });
    }
    return Promise.resolve();
  }

  rollback(): void {
    this.finished = true;
  }

  /** Applies the run's puts at once (no conflicts in this fake), leaving this transaction as it was. */
  commitRun(run: KeyRun): Promise<void> {
    this.store.commits++;
    for (const m of runMutations(run)) if (m.op === 'put') this.store.data.set(hex(m.key), { key: m.key, value: m.value });
    return Promise.resolve();
  }
}
