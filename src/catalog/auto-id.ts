/**
 * AUTO_INCREMENT values and hidden row ids (one counter per table, TiDB style).
 *
 * The KV counter metaKey('autoid', tableId) holds the next id not yet reserved by any process
 * (absent = 1, or the AUTO_INCREMENT=N start written by CREATE TABLE). A process reserves a
 * block [c, c+step) by advancing the counter in a small transaction of its own and hands ids
 * out from memory. Hence ids are UNIQUE across processes but only MONOTONIC per process, and a
 * restart leaves a gap (the rest of the block is lost). One allocation of n ids is always
 * consecutive: a block with fewer than n left is extended when the counter still ends it (no
 * other process reserved since), else abandoned for a fresh block. A block holds
 * max(step, BULK_FACTOR * n) ids, so bulk INSERTs of thousands of rows (sysbench prepare) share
 * one reservation transaction between several statements and still get ids without gaps.
 * Calls for one table are serialized, so concurrent callers never get overlapping ids.
 */
import type { TxnStore } from '../txn/types.js';
import { autoIdKey } from './meta-keys.js';
import { readCounter, writeCounter } from './meta-store.js';
import { SerialQueue } from './serial-queue.js';

export const DEFAULT_AUTO_ID_STEP = 1000;
/** A reservation for n ids takes at least this many times n (see above). */
const BULK_FACTOR = 4n;

interface Block {
  next: bigint;
  end: bigint;
}

export class AutoIdAllocator {
  private readonly blocks = new Map<number, Block>();
  private readonly queue = new SerialQueue<number>();

  constructor(
    private readonly store: TxnStore,
    private readonly step: number = DEFAULT_AUTO_ID_STEP,
  ) {}

  /** The first of `n` consecutive ids for table `tableId`. */
  alloc(tableId: number, n: number): Promise<bigint> {
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`allocAutoId: bad count ${n}`);
    return this.queue.run(tableId, async () => {
      const count = BigInt(n);
      let block = this.blocks.get(tableId);
      if (block === undefined || block.end - block.next < count) {
        const bulk = count * BULK_FACTOR;
        block = await this.reserve(tableId, bulk > BigInt(this.step) ? bulk : BigInt(this.step), block);
        this.blocks.set(tableId, block);
      }
      const first = block.next;
      block.next += count;
      return first;
    });
  }

  /**
   * An explicit value `used` was stored: ids handed out later are > used. Within the cached
   * block this only moves the cursor; beyond it, a fresh block starting above `used` is reserved
   * (so a run of increasing explicit ids costs one transaction per `step` ids, as in TiDB).
   */
  rebase(tableId: number, used: bigint): Promise<void> {
    return this.queue.run(tableId, async () => {
      const block = this.blocks.get(tableId);
      if (block !== undefined && used < block.next) return;
      if (block !== undefined && used < block.end) {
        block.next = used + 1n;
        return;
      }
      this.blocks.set(tableId, await this.reserveAbove(tableId, used));
    });
  }

  /** Forgets the cached block of a dropped / truncated table. */
  forget(tableId: number): void {
    this.blocks.delete(tableId);
  }

  private async reserveAbove(tableId: number, used: bigint): Promise<Block> {
    return this.store.update(async (txn) => {
      const key = autoIdKey(tableId);
      const current = (await readCounter(txn, key)) ?? 1n;
      const start = used >= current ? used + 1n : current;
      const end = start + BigInt(this.step);
      writeCounter(txn, key, end);
      return { next: start, end };
    });
  }

  /** A fresh block of `size` ids; it continues `old` when the counter still stands at old's end. */
  private async reserve(tableId: number, size: bigint, old: Block | undefined): Promise<Block> {
    return this.store.update(async (txn) => {
      const key = autoIdKey(tableId);
      const start = (await readCounter(txn, key)) ?? 1n;
      writeCounter(txn, key, start + size);
      return { next: old !== undefined && old.end === start ? old.next : start, end: start + size };
    });
  }
}
