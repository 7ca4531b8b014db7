/**
 * A kv Store wrapper that times every read and commit for the metrics (the store itself is
 * untouched). Reads are timed per call: `snapshot` (taking the start timestamp), `get`,
 * `batch_get`, `scan`; commits by result: `ok`, `conflict` (1213), `error`.
 */
import { isSqlError } from '../errors/index.js';
import { scanMappedOf, type CommitRequest, type KeyRange, type KvPair, type MappedPage, type PairMapper, type ScanOptions, type Snapshot, type Store } from '../kv/index.js';

export const KV_READ_OPS = ['snapshot', 'get', 'batch_get', 'scan'] as const;
export type KvReadOp = (typeof KV_READ_OPS)[number];
export const KV_COMMIT_RESULTS = ['ok', 'conflict', 'error'] as const;
export type KvCommitResult = (typeof KV_COMMIT_RESULTS)[number];

export interface KvTimings {
  kvRead(op: KvReadOp, seconds: number): void;
  kvCommit(result: KvCommitResult, seconds: number): void;
}

function seconds(since: number): number {
  return (performance.now() - since) / 1000;
}

/** `store` with every read and commit reported to `timings`. */
export function instrumentStore(store: Store, timings: KvTimings): Store {
  return new InstrumentedStore(store, timings);
}

class InstrumentedStore implements Store {
  constructor(
    private readonly inner: Store,
    private readonly timings: KvTimings,
  ) {}

  get url(): string {
    return this.inner.url;
  }

  get checksAbsent(): boolean {
    return this.inner.checksAbsent === true;
  }

  get commitsRuns(): boolean {
    return this.inner.commitsRuns === true;
  }

  snapshot(): Promise<Snapshot> {
    const t = performance.now();
    return this.inner.snapshot().then((snap) => {
      this.timings.kvRead('snapshot', seconds(t));
      return instrumentSnapshot(snap, this.timings);
    });
  }

  snapshotWith(keys: readonly Uint8Array[]): Promise<Snapshot> {
    const t = performance.now();
    const inner = this.inner.snapshotWith !== undefined ? this.inner.snapshotWith(keys) : this.inner.snapshot();
    return inner.then((snap) => {
      this.timings.kvRead('snapshot', seconds(t));
      return instrumentSnapshot(snap, this.timings);
    });
  }

  snapshotNow(): Snapshot | undefined {
    const t = performance.now();
    const snap = this.inner.snapshotNow?.();
    if (snap === undefined) return undefined;
    this.timings.kvRead('snapshot', seconds(t));
    return instrumentSnapshot(snap, this.timings);
  }

  async commit(req: CommitRequest): Promise<bigint> {
    const t = performance.now();
    try {
      const ts = await this.inner.commit(req);
      this.timings.kvCommit('ok', seconds(t));
      return ts;
    } catch (err) {
      this.timings.kvCommit(isSqlError(err) && err.errno === 1213 ? 'conflict' : 'error', seconds(t));
      throw err;
    }
  }

  deleteRange(range: KeyRange): Promise<void> {
    return this.inner.deleteRange(range);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The wrapper keeps getNow only where the inner snapshot has it (callers test for the method). */
function instrumentSnapshot(snap: Snapshot, timings: KvTimings): Snapshot {
  return snap.getNow === undefined ? new InstrumentedSnapshot(snap, timings) : new InstrumentedSyncSnapshot(snap, timings);
}

class InstrumentedSnapshot implements Snapshot {
  constructor(
    protected readonly inner: Snapshot,
    protected readonly timings: KvTimings,
  ) {}

  get startTs(): bigint {
    return this.inner.startTs;
  }

  // Plain then() rather than async/await: one promise less per read on the hot path.
  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const t = performance.now();
    return this.inner.get(key).then((value) => {
      this.timings.kvRead('get', seconds(t));
      return value;
    });
  }

  batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    const t = performance.now();
    return this.inner.batchGet(keys).then((values) => {
      this.timings.kvRead('batch_get', seconds(t));
      return values;
    });
  }

  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    const t = performance.now();
    return this.inner.scan(range, opts).then((pairs) => {
      this.timings.kvRead('scan', seconds(t));
      return pairs;
    });
  }

  scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
    const t = performance.now();
    return scanMappedOf(this.inner, range, opts, map).then((mapped) => {
      this.timings.kvRead('scan', seconds(t));
      return mapped;
    });
  }

  release(): void {
    this.inner.release();
  }
}

class InstrumentedSyncSnapshot extends InstrumentedSnapshot {
  getNow(key: Uint8Array): Uint8Array | undefined {
    const t = performance.now();
    const value = this.inner.getNow?.(key);
    this.timings.kvRead('get', seconds(t));
    return value;
  }
}
