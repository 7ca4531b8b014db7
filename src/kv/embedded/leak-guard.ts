import type { ReadLease } from './lmdb-snapshot.js';

/**
 * Ends the lease of a snapshot that was garbage-collected without release(), so an abandoned
 * snapshot cannot pin its LMDB read txn (and block tombstone GC) until it is evicted.
 *
 * FinalizationRegistry register+unregister costs ~0.9 µs, a quarter of a snapshot's cost, and
 * most snapshots are released within the macrotask that opened them. So registration is
 * deferred to the next macrotask (setImmediate) and skipped for leases already ended by then.
 * Until registered, the guard holds the snapshot strongly, which only delays its collection.
 */
export class LeakGuard {
  private readonly registry: FinalizationRegistry<ReadLease>;
  private pendingSnaps: object[] = [];
  private pendingLeases: ReadLease[] = [];
  private scheduled = false;

  /** `onLeak` must be idempotent with release(): it may race a late explicit release. */
  constructor(private readonly onLeak: (lease: ReadLease) => void) {
    this.registry = new FinalizationRegistry<ReadLease>((lease) => this.onLeak(lease));
  }

  /** Starts guarding `snap`, whose lease ends by release() or, if leaked, by the registry. */
  watch(snap: object, lease: ReadLease): void {
    this.pendingSnaps.push(snap);
    this.pendingLeases.push(lease);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush).unref();
  }

  /** Called when `lease` ended: no finalization is needed any more. */
  forget(lease: ReadLease): void {
    if (lease.watched) this.registry.unregister(lease);
  }

  /** Drops pending registrations (store closed: every lease has been ended). */
  clear(): void {
    this.pendingSnaps = [];
    this.pendingLeases = [];
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const snaps = this.pendingSnaps;
    const leases = this.pendingLeases;
    this.pendingSnaps = [];
    this.pendingLeases = [];
    for (let i = 0; i < leases.length; i++) {
      const lease = leases[i] as ReadLease;
      if (lease.released || lease.group.evicted) continue;
      lease.watched = true;
      this.registry.register(snaps[i] as object, lease, lease);
    }
  };
}
