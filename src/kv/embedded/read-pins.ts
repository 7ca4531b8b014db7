import type { Transaction } from 'lmdb';
import { counterValue, COUNTER_KEY, type EmbeddedDbs } from './commit-apply.js';
import type { FreshReadTxn } from './fresh-read-txn.js';
import { LeakGuard } from './leak-guard.js';
import { doneQuietly, getFastIn, useAgain, type EndLease, type PinGroup, type ReadLease } from './lmdb-snapshot.js';

/**
 * The embedded store's pinned LMDB read transactions: each snapshot takes a lease on the
 * PinGroup of the read txn current when it opened (snapshots between two commits share one txn
 * and one startTs), and the txn stays pinned until its last lease ended and the group's hold was
 * dropped. At most `maxPinned` groups are kept; opening one more ends every lease of the oldest
 * (its snapshots then report expiry), as does a full LMDB reader table.
 *
 * The current group is also kept between event-loop turns while no process commits: its hold is
 * not dropped as long as LMDB's last committed transaction id is the one seen when the group
 * opened, so the next turn's snapshots join it with one ~30 ns id read instead of lmdb-js's renew
 * (a timer per renewal) and a read of the commit counter. A kept group is let go as soon as a
 * snapshot finds the id moved, or by a check every KEEP_CHECK_MS once the id moved or no snapshot
 * joined it since the last check, so an old snapshot is not pinned for long after other processes
 * commit, and an idle process stops checking. A group whose last snapshot ends after a commit
 * passed it is let go at once rather than held to the end of the turn (a write statement's
 * snapshot ends after its own commit), so lmdb-js renews that read txn for the next snapshot
 * instead of beginning another.
 */
/** How often a kept group is looked at (ms): let go if a commit moved the id or it was not used. */
const KEEP_CHECK_MS = 20;

export class ReadPins {
  /**
   * Pinned read txns with at least one open snapshot or a hold, oldest first (Map keeps insertion
   * order; startTs never decreases along it). A group leaves the map when its last member ended
   * and its hold was dropped.
   */
  private readonly pinned = new Map<Transaction, PinGroup>();
  /** The most recently used group (fast path: snapshots between two commits share it). */
  private current: PinGroup | undefined;
  /** Groups whose hold dropHolds() releases at the next setImmediate. */
  private heldGroups: PinGroup[] = [];
  /** The current group, held past its turn while nothing was committed (see the class comment). */
  private kept: PinGroup | undefined;
  /** Whether a snapshot joined the kept group since the last check (an idle process lets it go). */
  private keptUsed = false;
  private keepCheck: NodeJS.Timeout | undefined;
  /** Ends the lease of a snapshot garbage-collected without release(). */
  private readonly leakGuard = new LeakGuard((lease) => this.endLease(lease));
  /** What each snapshot calls to end its lease (idempotent). */
  readonly end: EndLease = (lease) => this.endLease(lease);

  constructor(
    private readonly dbs: EmbeddedDbs,
    private readonly readTxn: FreshReadTxn,
    private readonly maxPinned: number,
  ) {}

  /** A lease on the latest commit's read txn, for a new snapshot. */
  lease(): ReadLease {
    const latest = this.current;
    if (latest !== undefined && this.stillLatest(latest) && (latest.open > 0 || latest.held)) {
      useAgain(latest.txn);
      latest.open++;
      this.keptUsed = true;
      return { group: latest, released: false, watched: false };
    }
    const txn = this.useReadTxn();
    // While a group has open members or a hold its txn object cannot be reset/renewed by lmdb-js
    // (they hold references), so the same txn object means the same LMDB snapshot and startTs.
    let group = this.current;
    if (group === undefined || group.txn !== txn || group.evicted || (group.open === 0 && !group.held)) {
      group = this.pinned.get(txn);
      if (group === undefined) {
        if (this.pinned.size >= this.maxPinned) this.evictOldest();
        const raw = getFastIn(this.dbs.meta, COUNTER_KEY, { transaction: txn });
        group = { txn, startTs: counterValue(raw), open: 0, evicted: false, held: false, seenAt: this.readTxn.usedAt };
        this.pinned.set(txn, group);
      }
      this.current = group;
      if (this.kept !== undefined && this.kept !== group) this.letGo(this.kept);
    }
    group.open++;
    return { group, released: false, watched: false };
  }

  /** Guards `snap` (holding `lease`) against being dropped without release() (leak-guard.ts). */
  watch(snap: object, lease: ReadLease): void {
    this.leakGuard.watch(snap, lease);
  }

  /** The smallest startTs of any open snapshot (tombstones it may still see must be kept). */
  oldestActiveStart(): bigint | undefined {
    let min: bigint | undefined;
    for (const group of this.pinned.values()) if (min === undefined || group.startTs < min) min = group.startTs;
    return min;
  }

  /** Ends every lease (store close). */
  clear(): void {
    for (const group of [...this.pinned.values()]) this.evictGroup(group);
    this.leakGuard.clear();
    clearTimeout(this.keepCheck);
    this.keepCheck = undefined;
  }

  /** release() / finalizer: drops the lease's txn reference once (no-op if its group was evicted). */
  private endLease(lease: ReadLease): void {
    const group = lease.group;
    if (lease.released || group.evicted) return;
    lease.released = true;
    this.leakGuard.forget(lease);
    if (--group.open === 0 && !group.held) {
      // The lease's txn reference becomes the group's hold (PinGroup.held) until setImmediate.
      group.held = true;
      if (this.passed(group)) {
        // Unless a commit moved past it: no later snapshot joins it, so its txn goes now, and
        // lmdb-js can renew that txn for the next snapshot instead of beginning another (a write
        // statement's snapshot ends after its own commit).
        this.letGo(group);
        return;
      }
      this.heldGroups.push(group);
      if (this.heldGroups.length === 1) setImmediate(this.dropHolds).unref();
      return;
    }
    doneQuietly(group.txn);
  }

  /** setImmediate after groups were held: each drops its hold; an empty group is unpinned. */
  private readonly dropHolds = (): void => {
    const groups = this.heldGroups;
    this.heldGroups = [];
    for (const group of groups) {
      if (!group.held) continue; // evicted meanwhile
      if (group === this.current && this.stillLatest(group)) this.keep(group);
      else this.letGo(group);
    }
  };

  /** True while no process committed since `group`'s txn was taken (never without the add-on's id). */
  private stillLatest(group: PinGroup): boolean {
    return group.seenAt !== 0 && !group.evicted && this.readTxn.lastCommitted() === group.seenAt;
  }

  /** True once some process committed after `group`'s txn was taken (never without the add-on's id). */
  private passed(group: PinGroup): boolean {
    return group.seenAt !== 0 && this.readTxn.lastCommitted() !== group.seenAt;
  }

  /** Keeps held `group` past its turn, looked at again in KEEP_CHECK_MS. */
  private keep(group: PinGroup): void {
    this.kept = group;
    this.keepCheck ??= setTimeout(this.checkKept, KEEP_CHECK_MS).unref();
  }

  private readonly checkKept = (): void => {
    this.keepCheck = undefined;
    const group = this.kept;
    if (group === undefined || !group.held) return;
    const used = this.keptUsed;
    this.keptUsed = false;
    if (used && group === this.current && this.stillLatest(group)) this.keep(group);
    else this.letGo(group);
  };

  /** Drops `group`'s hold; an empty group is unpinned. */
  private letGo(group: PinGroup): void {
    if (this.kept === group) this.kept = undefined;
    if (!group.held) return;
    group.held = false;
    if (group.open === 0) this.pinned.delete(group.txn);
    doneQuietly(group.txn);
  }

  /** Ends every open member of `group` (and its hold) at once; their snapshots then report expiry. */
  private evictGroup(group: PinGroup): void {
    if (this.kept === group) this.kept = undefined;
    group.evicted = true;
    this.pinned.delete(group.txn);
    for (; group.open > 0; group.open--) doneQuietly(group.txn);
    if (group.held) {
      group.held = false;
      doneQuietly(group.txn);
    }
  }

  /**
   * A read txn at the latest commit of any process (fresh-read-txn.ts), used once (the caller
   * ends it with done()); if LMDB's reader table is full, expire our oldest pins and retry once.
   */
  useReadTxn(): Transaction {
    try {
      return this.readTxn.use();
    } catch (err) {
      if (!String(err).includes('MDB_READERS_FULL') || this.pinned.size === 0) throw err;
      for (let n = Math.ceil(this.pinned.size / 2); n > 0; n--) this.evictOldest();
      return this.dbs.data.useReadTransaction();
    }
  }

  /** Ends every lease of the oldest pinned read txn (abandoned snapshots land here first). */
  private evictOldest(): void {
    const first = this.pinned.values().next();
    if (first.done !== true) this.evictGroup(first.value);
  }
}
