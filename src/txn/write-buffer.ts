import type { CheckedKey, Mutation } from '../kv/kv.js';
import { bytesEqual, compareBytes } from '../util/index.js';

/**
 * One buffered write. `value === null` is a delete. Dead entries were rolled back. `since` is
 * the timestamp of the current read the write was computed from (undefined: the txn's snapshot);
 * its commit check counts from there (kv.ts Mutation). `derived`: every write of the key so far
 * was derived (kv.ts Mutation: covered by another key's check).
 */
export interface BufferEntry {
  readonly key: Uint8Array;
  value: Uint8Array | null;
  dead: boolean;
  since: bigint | undefined;
  derived: boolean;
  /** Written by writeAbsent: the commit requires the key to hold no stored live value (kv.ts Mutation). */
  readonly absent: boolean;
}

/** A locked (checked) key and the timestamp its check counts from (undefined: the txn's snapshot). */
interface Lock {
  readonly key: Uint8Array;
  since: bigint | undefined;
}

/** The earlier of two check bases, undefined (the txn's own snapshot) being the earliest. */
function earlier(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined || b === undefined) return undefined;
  return a < b ? a : b;
}

/**
 * Undo record: a write that created its entry is the entry itself (undo = drop it); an
 * overwrite keeps the entry's previous value; a lock keeps the lock's id.
 */
type UndoRecord =
  | BufferEntry
  | { readonly kind: 'write'; readonly entry: BufferEntry; readonly prev: Uint8Array | null; readonly prevDerived: boolean }
  | { readonly kind: 'lock'; readonly id: string };

/** An entry's mutation: checked from its own base or its lock's, whichever is earlier; derived only if not locked too. */
function mutationOf(e: BufferEntry, lock: Lock | undefined): Mutation {
  if (e.derived && lock === undefined) return derivedMutation(e);
  return checkedMutation(e, lock === undefined ? e.since : earlier(e.since, lock.since));
}

/** Locks up to this many are matched against unmapped entries by their bytes (locksOnUnmapped). */
const FEW_LOCKS = 8;

/** Keys up to this long become map ids through String.fromCharCode (no Buffer wrapper). */
const SHORT_KEY = 64;

/** Map key for bytes: latin1 is a 1:1 byte<->char mapping. */
export function keyId(key: Uint8Array): string {
  if (key.length <= SHORT_KEY) return String.fromCharCode.apply(null, key as unknown as number[]);
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
}

/**
 * A transaction's write set: puts and deletes keyed by bytes, plus locked (checked) keys, with
 * an undo log for statement rollback (checkpoint() = undo-log length; rollbackTo pops back).
 *
 * Lookups are one Map access. Ordered iteration uses a sorted array of entries; new keys go to
 * `pending` and are sorted + merged in lazily on the next ordered access, so bulk inserts cost
 * O(n log n) overall. Keys and values are kept by reference (callers hand over ownership).
 */
export class WriteBuffer {
  private readonly entries = new Map<string, BufferEntry>();
  private readonly locks = new Map<string, Lock>();
  private readonly undo: UndoRecord[] = [];
  private sorted: BufferEntry[] = [];
  private pending: BufferEntry[] = [];
  /** writeNew's entries not yet in `entries` (mapped on the first access that needs ids). */
  private unmapped: BufferEntry[] = [];
  private deadInSorted = 0;
  private byteCount = 0;

  get size(): number {
    return this.entries.size + this.unmapped.length;
  }

  /** Bytes of the live entries' keys and values (what commit would send). */
  get bytes(): number {
    return this.byteCount;
  }

  /** The buffered entry for `key`, if any (value null = deleted by this txn). */
  lookup(key: Uint8Array): BufferEntry | undefined {
    if (this.unmapped.length > 0) this.mapAll();
    return this.entries.size === 0 ? undefined : this.entries.get(keyId(key));
  }

  /**
   * Records a put (value) or delete (null), computed from a read at `since` (undefined: the txn's
   * snapshot). A key written again keeps the earlier base: its first write already depended on it;
   * it stays `derived` only if every write of it was.
   */
  write(key: Uint8Array, value: Uint8Array | null, since?: bigint, derived = false): void {
    if (this.unmapped.length > 0) this.mapAll();
    const id = keyId(key);
    const entry = this.entries.get(id);
    if (entry !== undefined) {
      this.undo.push({ kind: 'write', entry, prev: entry.value, prevDerived: entry.derived });
      this.byteCount += byteLength(value) - byteLength(entry.value);
      entry.value = value;
      entry.since = earlier(entry.since, since);
      entry.derived &&= derived;
      return;
    }
    this.entries.set(id, this.create(key, value, since, derived, false));
  }

  /**
   * A put whose key must hold no live value (kv.ts Mutation `absent`): false, writing nothing,
   * when this buffer holds a live value for it. Over this buffer's own delete of the key it is a
   * plain put (the delete removed the stored value). The key must differ from every other key
   * given to writeNew or writeAbsent (a generated AUTO_INCREMENT id's row key: ids are never
   * handed out twice); while no entry has a map id, the entry then joins writeNew's unmapped ones
   * (a bulk INSERT's rows cost no id string and no map insertion each).
   */
  writeAbsent(key: Uint8Array, value: Uint8Array, since?: bigint): boolean {
    // Nothing filed under an id: the only entries are writeNew's and this method's unmapped ones,
    // whose keys differ from this one (the caller's promise), so the key holds no live value here.
    if (this.entries.size === 0) {
      this.unmapped.push(this.create(key, value, since, false, true));
      return true;
    }
    if (this.unmapped.length > 0) this.mapAll();
    const id = keyId(key);
    const entry = this.entries.get(id);
    if (entry !== undefined && entry.value !== null) return false;
    if (entry !== undefined) this.write(key, value, since);
    else this.entries.set(id, this.create(key, value, since, false, true));
    return true;
  }

  /** A new entry, counted and recorded for ordering and undo (the caller files it under its id, or as unmapped). */
  private create(key: Uint8Array, value: Uint8Array | null, since: bigint | undefined, derived: boolean, absent: boolean): BufferEntry {
    this.byteCount += key.byteLength + byteLength(value);
    const created: BufferEntry = { key, value, dead: false, since, derived, absent };
    this.pending.push(created);
    this.undo.push(created);
    return created;
  }

  /**
   * A put of a key this buffer holds no entry for, distinct from every other writeNew key (the
   * caller's promise, e.g. an index backfill's entries): like write(), but the entry gets its map
   * id only when a lookup, write, lock or rollback needs one, so a batch of new entries costs no
   * id string and no map insertion per key.
   */
  writeNew(key: Uint8Array, value: Uint8Array, since?: bigint, derived = false): void {
    this.unmapped.push(this.create(key, value, since, derived, false));
  }

  /**
   * The lock on each unmapped entry's key (entries without one are absent). With few locks (a
   * statement's table lock) they are matched by their bytes, so a bulk INSERT's rows need no map
   * id at commit either; with more, every unmapped entry gets its id first (mapAll).
   */
  private locksOnUnmapped(): Map<BufferEntry, Lock> {
    const found = new Map<BufferEntry, Lock>();
    if (this.unmapped.length === 0) return found;
    if (this.locks.size > FEW_LOCKS) {
      this.mapAll();
      return found;
    }
    for (const lock of this.locks.values()) {
      for (const e of this.unmapped) if (bytesEqual(e.key, lock.key)) found.set(e, lock);
    }
    return found;
  }

  /** Gives writeNew's and writeAbsent's unmapped entries their map ids; a key written before breaks their promise. */
  private mapAll(): void {
    for (const e of this.unmapped) {
      const id = keyId(e.key);
      if (this.entries.has(id)) throw new Error('WriteBuffer.writeNew / writeAbsent: a key the buffer already held');
      this.entries.set(id, e);
    }
    this.unmapped = [];
  }

  /** Checks `key` at commit from `since` (undefined: the txn's snapshot); a key locked twice keeps the earlier base. */
  lock(key: Uint8Array, since?: bigint): void {
    if (this.unmapped.length > 0) this.mapAll();
    const id = keyId(key);
    const held = this.locks.get(id);
    if (held !== undefined) {
      held.since = earlier(held.since, since);
      return;
    }
    this.locks.set(id, { key, since });
    this.undo.push({ kind: 'lock', id });
  }

  checkpoint(): number {
    return this.undo.length;
  }

  /** Undoes every write and lock recorded after checkpoint `cp`. */
  rollbackTo(cp: number): void {
    if (this.unmapped.length > 0) this.mapAll();
    while (this.undo.length > cp) {
      const rec = this.undo.pop() as UndoRecord;
      if (!('kind' in rec)) {
        this.byteCount -= rec.key.byteLength + byteLength(rec.value);
        rec.dead = true;
        this.entries.delete(keyId(rec.key));
        this.deadInSorted++;
      } else if (rec.kind === 'lock') {
        this.locks.delete(rec.id);
      } else {
        this.byteCount += byteLength(rec.prev) - byteLength(rec.entry.value);
        rec.entry.value = rec.prev;
        rec.entry.derived = rec.prevDerived;
      }
    }
  }

  /** Live entries in key order (the array may contain dead entries: skip `dead`). */
  ordered(): readonly BufferEntry[] {
    if (this.pending.length > 0 || this.deadInSorted > 0) this.normalize();
    return this.sorted;
  }

  /**
   * Every live entry as a commit's mutation, checked from its own base or its lock's, whichever
   * is earlier; `derived` (no check needed) only if it is not locked too.
   */
  mutations(): Mutation[] {
    const out: Mutation[] = [];
    const locked = this.locks.size > 0;
    const onUnmapped = locked ? this.locksOnUnmapped() : undefined;
    // Never overwritten (an overwrite maps them): as written, checked from their lock's base too if locked.
    for (const e of this.unmapped) out.push(mutationOf(e, onUnmapped?.get(e)));
    for (const [id, e] of this.entries) out.push(mutationOf(e, locked ? this.locks.get(id) : undefined));
    return out;
  }

  /** Locked keys not also written (written keys are checked anyway): from the txn's snapshot, or from a later read. */
  lockOnlyChecks(): { keys: Uint8Array[]; later: CheckedKey[] } {
    const onUnmapped = this.locks.size > 0 ? this.locksOnUnmapped() : undefined;
    const writtenUnmapped = new Set(onUnmapped?.values());
    const keys: Uint8Array[] = [];
    const later: CheckedKey[] = [];
    for (const [id, lock] of this.locks) {
      if (this.entries.has(id) || writtenUnmapped.has(lock)) continue;
      if (lock.since === undefined) keys.push(lock.key);
      else later.push({ key: lock.key, since: lock.since });
    }
    return { keys, later };
  }

  private normalize(): void {
    const fresh = this.pending.filter((e) => !e.dead).sort((a, b) => compareBytes(a.key, b.key));
    this.pending = [];
    const old = this.deadInSorted > 0 ? this.sorted.filter((e) => !e.dead) : this.sorted;
    this.deadInSorted = 0;
    this.sorted = fresh.length === 0 ? old : mergeSorted(old, fresh);
  }
}

/** A live entry as a commit's mutation checked from `since` (undefined: the txn's snapshot). */
function checkedMutation(e: BufferEntry, since: bigint | undefined): Mutation {
  if (e.absent) return absentMutation(e, since);
  const m: Mutation = e.value === null ? { op: 'del', key: e.key } : { op: 'put', key: e.key, value: e.value };
  return since === undefined ? m : { ...m, since };
}

/** checkedMutation of a writeAbsent entry (one object per mutation: bulk INSERTs make thousands). */
function absentMutation(e: BufferEntry, since: bigint | undefined): Mutation {
  const { key, value } = e;
  if (value === null) return since === undefined ? { op: 'del', key, absent: true } : { op: 'del', key, since, absent: true };
  return since === undefined ? { op: 'put', key, value, absent: true } : { op: 'put', key, value, since, absent: true };
}

/** A derived entry (kv.ts Mutation: no check of its own) as a commit's mutation. */
function derivedMutation(e: BufferEntry): Mutation {
  return e.value === null ? { op: 'del', key: e.key, derived: true } : { op: 'put', key: e.key, value: e.value, derived: true };
}

function mergeSorted(a: readonly BufferEntry[], b: readonly BufferEntry[]): BufferEntry[] {
  if (a.length === 0) return b.slice();
  const last = a[a.length - 1] as BufferEntry;
  if (compareBytes(last.key, (b[0] as BufferEntry).key) < 0) return a.concat(b);
  const out: BufferEntry[] = new Array<BufferEntry>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as BufferEntry;
    const y = b[j] as BufferEntry;
    if (compareBytes(x.key, y.key) <= 0) {
      out[k++] = x;
      i++;
    } else {
      out[k++] = y;
      j++;
    }
  }
  while (i < a.length) out[k++] = a[i++] as BufferEntry;
  while (j < b.length) out[k++] = b[j++] as BufferEntry;
  return out;
}

/** Index of the first entry with key >= `key` in sorted `arr`. */
export function lowerBound(arr: readonly BufferEntry[], key: Uint8Array): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes((arr[mid] as BufferEntry).key, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function byteLength(value: Uint8Array | null): number {
  return value === null ? 0 : value.byteLength;
}
