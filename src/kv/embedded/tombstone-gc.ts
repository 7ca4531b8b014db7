import type { EmbeddedDbs } from './commit-apply.js';
import { COUNTER_KEY, GC_SAFE_POINT_KEY, readCounter } from './commit-apply.js';
import { encodeTs, isLive, readTs } from './value-format.js';
import { LoggedWrites, type RedoLog } from './redo-log.js';

/**
 * Tombstone garbage collection (conservative).
 *
 * A tombstone must stay while some transaction that started before it could still commit a
 * write to its key (it is what makes that commit conflict). The collector picks a safe point:
 * the newest commitTs observed at least `ageMs` ago in this process, lowered to the oldest
 * snapshot still open in this process. It stores the safe point in `meta` (monotonic) and then
 * removes tombstones with commitTs <= safe point. applyCommit() refuses (1213) any commit whose
 * startTs is below the stored safe point, so a transaction in another process that is older than
 * `ageMs` fails cleanly instead of missing a conflict. Removing a tombstone never changes what
 * any snapshot sees (a tombstone reads as absent; LMDB MVCC keeps open read txns unchanged).
 */
/** Tombstones looked at per write transaction. */
const GC_BATCH = 1000;

export class TombstoneGc {
  private readonly samples: Array<{ readonly at: number; readonly ts: bigint }> = [];

  constructor(
    private readonly dbs: EmbeddedDbs,
    private readonly ageMs: number,
    private readonly oldestLocalSnapshot: () => bigint | undefined,
    private readonly log: RedoLog | undefined,
    /** Called before each write batch with an upper bound of the bytes it adds (data-file-room.ts). */
    private readonly beforeBatch: (bytes: number) => void = () => undefined,
  ) {}

  /** Records the current commitTs; call periodically (the store's timer does). */
  sample(now: number): void {
    this.samples.push({ at: now, ts: readCounter(this.dbs.meta, COUNTER_KEY) });
  }

  /** Runs one collection; resolves with the number of tombstones removed. */
  async collect(now: number = Date.now()): Promise<number> {
    this.sample(now);
    let horizon: bigint | undefined;
    while (this.samples.length > 0 && (this.samples[0] as { at: number }).at <= now - this.ageMs) {
      horizon = (this.samples.shift() as { ts: bigint }).ts;
    }
    if (horizon === undefined) return 0;
    this.samples.unshift({ at: now - this.ageMs, ts: horizon }); // keep the horizon for next time
    const oldest = this.oldestLocalSnapshot();
    const safe = oldest !== undefined && oldest < horizon ? oldest : horizon;
    let removed = 0;
    for (;;) {
      this.beforeBatch(2 * GC_BATCH * 8192);
      const batch = await this.dbs.data.transaction(() => this.collectBatch(safe));
      removed += batch.removed;
      if (!batch.more) return removed;
    }
  }

  /** Inside a write txn: advance the safe point, remove up to BATCH collectable tombstones. */
  private collectBatch(safe: bigint): { removed: number; more: boolean } {
    const { data, meta, tombs } = this.dbs;
    const w = new LoggedWrites(this.dbs, this.log);
    if (readCounter(meta, GC_SAFE_POINT_KEY) < safe) w.putMeta(GC_SAFE_POINT_KEY, encodeTs(safe));
    const end = encodeTs(safe + 1n);
    const entries: Buffer[] = [];
    for (const key of tombs.getKeys({ end, limit: GC_BATCH })) entries.push(Buffer.from(key));
    let removed = 0;
    for (const entry of entries) {
      const userKey = entry.subarray(8);
      const stored = data.getBinaryFast(userKey);
      if (stored !== undefined && !isLive(stored) && readTs(stored) === readTs(entry)) {
        w.remove('data', userKey);
        removed++;
      }
      w.remove('tombs', entry);
    }
    // Not waited for: losing a collection in a crash only leaves tombstones to collect again.
    w.finish();
    return { removed, more: entries.length === GC_BATCH };
  }
}
