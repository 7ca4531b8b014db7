/** Pages through a list of key ranges with txn.scan / txn.scanMapped, batch size starting small and growing. */
import type { PairMapper, Txn } from '../../txn/index.js';
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
    for (;;) {
      const range = this.nextRange();
      if (range === null) return null;
      const pairs = await this.txn.scan(range, { limit: this.batch });
      this.advance(pairs.length, pairs[pairs.length - 1]?.key);
      if (pairs.length > 0) return pairs;
    }
  }

  /**
   * The next non-empty page with each pair passed through `map` (txn.scanMapped: `map` may get
   * borrowed views and must decode what it keeps), or null when every range is exhausted.
   */
  async nextMapped<T>(map: PairMapper<T>): Promise<T[] | null> {
    for (;;) {
      const range = this.nextRange();
      if (range === null) return null;
      const page = await this.txn.scanMapped(range, { limit: this.batch }, map);
      this.advance(page.items.length, page.lastKey);
      if (page.items.length > 0) return page.items;
    }
  }

  /** The part of the current range still to scan, or null after the last range. */
  private nextRange(): KeyRange | null {
    const r = this.ranges[this.index];
    if (r === undefined) return null;
    return { start: this.cursor ?? r.start, end: r.end };
  }

  /** After a page of `count` pairs ending at `lastKey`: on past it, or to the next range if the page was short. */
  private advance(count: number, lastKey: Uint8Array | undefined): void {
    if (count < this.batch || lastKey === undefined) {
      this.index++;
      this.cursor = null;
    } else {
      this.cursor = keyNext(lastKey);
      this.batch = Math.min(this.batch * 2, MAX_BATCH);
    }
  }
}
