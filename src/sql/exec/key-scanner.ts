/** Pages through a list of key ranges with txn.scan, batch size starting small and growing. */
import type { Txn } from '../../txn/index.js';
import { keyNext } from '../../util/index.js';
import { MAX_BATCH } from './executor.js';
import type { KeyRange } from './key-ranges.js';

export type KvPair = Awaited<ReturnType<Txn['scan']>>[number];

export class KeyScanner {
  private index = 0;
  private cursor: Uint8Array | null = null;

  constructor(
    private readonly txn: Txn,
    private readonly ranges: readonly KeyRange[],
    private batch: number,
  ) {}

  /** The next non-empty page, or null when every range is exhausted. */
  async next(): Promise<KvPair[] | null> {
    while (this.index < this.ranges.length) {
      const r = this.ranges[this.index] as KeyRange;
      const start = this.cursor ?? r.start;
      const limit = this.batch;
      const pairs = await this.txn.scan({ start, end: r.end }, { limit });
      if (pairs.length < limit) {
        this.index++;
        this.cursor = null;
      } else {
        this.cursor = keyNext((pairs[pairs.length - 1] as KvPair).key);
        this.batch = Math.min(this.batch * 2, MAX_BATCH);
      }
      if (pairs.length > 0) return pairs;
    }
    return null;
  }
}
