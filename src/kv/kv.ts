/**
 * The narrow contract every KV backend meets (embedded LMDB, etcd, later TiKV).
 *
 * Keys and values are arbitrary bytes; keys order by unsigned byte comparison (memcmp).
 * A store gives snapshot reads at a start timestamp and an atomic, conditional commit:
 * "first committer wins" on every written key (but `derived` ones, see Mutation) and every key
 * in `checkKeys`.
 * Buffers returned by a backend belong to the caller (backends copy out of shared memory); only
 * scanMapped's mapper sees borrowed views.
 */
import type { KeyRun } from './key-run.js';

/** Half-open key range [start, end). `end` must be > `start` for a non-empty range. */
export interface KeyRange {
  readonly start: Uint8Array;
  readonly end: Uint8Array;
}

export interface KvPair {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/**
 * Maps one pair of scanMapped: the key is `key[keyStart..keyEnd)`, the value
 * `value[valueStart..valueEnd)`. Both buffers may be a store's reused memory, valid only during
 * the call (no views are made per pair: the mapper reads at the offsets and copies what it keeps).
 */
export type PairMapper<T> = (key: Uint8Array, keyStart: number, keyEnd: number, value: Uint8Array, valueStart: number, valueEnd: number) => T;

/** What scanMapped returns: the mapped pairs in scan order and, for a full page, a copy of the last key. */
export interface MappedPage<T> {
  readonly items: T[];
  /**
   * When the page holds `limit` items: a copy of the last one's key, owned by the caller (to page
   * on past it). Undefined for a shorter page (the range is exhausted).
   */
  readonly lastKey: Uint8Array | undefined;
}

/** `snap.scanMapped`, or scan() with its owned pairs mapped when the store has none. */
export function scanMappedOf<T>(snap: Snapshot, range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
  if (snap.scanMapped !== undefined) return snap.scanMapped(range, opts, map);
  return snap.scan(range, opts).then((pairs) => mapPairs(pairs, map, opts.limit));
}

/** scanMapped over pairs that were already copied out (for stores and txns without a cheaper way). */
export function mapPairs<T>(pairs: readonly KvPair[], map: PairMapper<T>, limit: number): MappedPage<T> {
  const items = new Array<T>(pairs.length);
  for (let i = 0; i < pairs.length; i++) {
    const { key, value } = pairs[i] as KvPair;
    items[i] = map(key, 0, key.length, value, 0, value.length);
  }
  return { items, lastKey: pairs.length >= limit ? pairs[pairs.length - 1]?.key : undefined };
}

export interface ScanOptions {
  /** Newest-to-oldest order (from just below `end` down to `start`). Default false. */
  readonly reverse?: boolean;
  /** At most this many pairs. Required: callers page through large ranges. */
  readonly limit: number;
}

/** A consistent, read-only view of the store as of `startTs`. */
export interface Snapshot {
  /** Every commit with commitTs <= startTs is visible; none after it is. */
  readonly startTs: bigint;
  /** The value of `key`, or undefined if absent (or deleted) in this snapshot. */
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /**
   * get() without a promise, for snapshots that read without I/O (the embedded store): throws
   * where get() rejects. Optional: callers fall back to get().
   */
  getNow?(key: Uint8Array): Uint8Array | undefined;
  /** Values in the order of `keys`; undefined where absent. */
  batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>>;
  /** Up to `limit` live pairs in [start, end), ascending unless `reverse`. */
  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]>;
  /**
   * scan() without copying every pair out first: `map` sees each pair at offsets into the store's
   * reused memory, valid only during the call, and must copy or decode what it keeps. Optional:
   * a store that copies anyway leaves it out, and callers go through scanMappedOf().
   */
  scanMapped?<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>>;
  /** Frees backend resources (read transactions). Idempotent; the snapshot is unusable after. */
  release(): void;
}

/**
 * One write of a commit. `since` (>= the request's startTs) narrows its conflict check: the
 * write was computed from a current read at that timestamp (CheckedKey), so only commits to the
 * key after `since`, not after startTs, conflict with it.
 *
 * `derived`: the key is only ever written together with another key of the same commit that is
 * checked and covers it (a non-unique index entry, whose key names its row's handle, is written
 * only with that row's record key), so a conflict on it is already a conflict on the covering
 * key. A store may then skip its check, and apply a `del` without keeping the delete's
 * timestamp (no tombstone): nothing asks when a derived key was last written.
 *
 * `absent`: the key must hold no live value when the transaction commits, besides passing its
 * conflict check (a row under a generated AUTO_INCREMENT id: another process's id block, or an
 * UPDATE of the id, may have put a row there). The commit then fails with KeyExistsError, and
 * nothing is applied. Stores that check it say so (Store.checksAbsent); for others the
 * transaction layer reads such keys at its snapshot before committing.
 */
export type Mutation =
  | { readonly op: 'put'; readonly key: Uint8Array; readonly value: Uint8Array; readonly since?: bigint; readonly derived?: true; readonly absent?: true }
  | { readonly op: 'del'; readonly key: Uint8Array; readonly since?: bigint; readonly derived?: true; readonly absent?: true };

/** A commit failed: a mutation marked `absent` found a live value at its key (nothing was applied). */
export class KeyExistsError extends Error {
  constructor(readonly key: Uint8Array) {
    super('commit: a key that had to be absent holds a value');
    this.name = 'KeyExistsError';
  }
}

/**
 * A key a transaction read at a later snapshot than its own (a current read: what InnoDB's
 * UPDATE, DELETE, INSERT and locking SELECTs do inside a transaction): it must not have been
 * committed after `since`.
 */
export interface CheckedKey {
  readonly key: Uint8Array;
  readonly since: bigint;
}

export interface CommitRequest {
  readonly startTs: bigint;
  /** At most one mutation per key. */
  readonly mutations: readonly Mutation[];
  /**
   * Keys that were read and must not have changed since startTs (SELECT ... FOR UPDATE,
   * table definitions a writer depends on). The commit fails if any was committed after startTs.
   */
  readonly checkKeys: readonly Uint8Array[];
  /** Like checkKeys, each checked from its own `since` (>= startTs) instead of startTs. */
  readonly laterChecks?: readonly CheckedKey[];
  /** More puts, as a key run (key-run.ts); only for a store whose `commitsRuns` is true. */
  readonly run?: KeyRun;
}

/**
 * A transactional KV store. `commit` is atomic and durable (fsync'd) when its promise resolves.
 * It rejects with SqlError ER_LOCK_DEADLOCK (1213/40001) when any mutated or checked key was
 * committed by another transaction after `startTs`, or after its own `since` where it has one
 * (deletes count as commits); nothing is then applied.
 */
export interface Store {
  /** Human-readable backend description for logs, e.g. `lmdb:///path`. */
  readonly url: string;
  /** True when commit() itself checks mutations marked `absent` (Mutation). */
  readonly checksAbsent?: boolean;
  /** True when commit() takes a request's `run` (key-run.ts); others never get one. */
  readonly commitsRuns?: boolean;
  /** Opens a snapshot at the latest committed state. */
  snapshot(): Promise<Snapshot>;
  /**
   * snapshot() without a promise, for stores whose snapshots need no I/O (the embedded store):
   * saves the hot path a promise and a microtask per statement. Undefined when this store cannot
   * (the caller then awaits snapshot()); throws where snapshot() would reject.
   */
  snapshotNow?(): Snapshot | undefined;
  /**
   * snapshot() that also reads `keys` at the new snapshot in the same request, for stores whose
   * snapshot() costs a round trip of its own (etcd): the snapshot then answers get() of those
   * keys from memory. The keys are a guess of what the transaction reads first (a point select's
   * row); any key may be given, and the snapshot is the same as snapshot()'s.
   */
  snapshotWith?(keys: readonly Uint8Array[]): Promise<Snapshot>;
  /** Applies mutations atomically if no conflict; resolves with the commit timestamp. */
  commit(req: CommitRequest): Promise<bigint>;
  /**
   * Removes every key in [start, end) outside any transaction (used after DROP TABLE/INDEX
   * for data no schema refers to any more). May run in several batches; not atomic.
   */
  deleteRange(range: KeyRange): Promise<void>;
  close(): Promise<void>;
}
