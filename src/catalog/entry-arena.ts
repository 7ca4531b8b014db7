/**
 * The sorted index build's arena (sorted-backfill.ts): every row's entry, without an object per
 * row. While the table is read, each entry's key part after the index prefix (and, for a unique
 * index, its value) is appended to one byte array, records back to back, with the end of each in
 * a second array. For the sort they must have one width: when every key part has the same length
 * the records already do; otherwise each is copied into a slot as wide as the longest, zero
 * padded, with its length kept beside (KeyRun.lengths). Padding keeps the order: index keys are
 * made of memcomparable values, none of which is a prefix of another (each begins with a type
 * flag, and a string's bytes end with a group marker), so two different key parts differ before
 * the shorter one ends.
 *
 * Example (non-unique, key parts `05 01`, `07 02 09`, `06 03`): records `05 01 | 07 02 09 | 06 03`
 * with ends [2, 5, 7]; padded to width 3: `05 01 00 | 07 02 09 | 06 03 00`, lengths [2, 3, 2].
 */

import { copyRange } from '../util/index.js';

/** Rows the arena may hold, and how many the table's handle span suggests (its first size). */
export interface RowLimits {
  readonly max: number;
  readonly expected: number;
}

/** The records at one width, as the sort and the key runs take them. */
export interface PaddedEntries {
  readonly prefix: Uint8Array;
  readonly records: Uint8Array;
  /** Bytes of each record's key part (the longest, with `lengths`). */
  readonly width: number;
  /** Each record's key part length, when they differ. */
  readonly lengths: Uint16Array | undefined;
  /** Bytes of each record's value after its key part (0: the index's entries share one value). */
  readonly valueWidth: number;
  readonly count: number;
}

/** Bytes an arena may hold, before and after padding. */
const MAX_BYTES = 48 << 20;

export class EntryArena {
  private bytes = new Uint8Array(0);
  private ends = new Uint32Array(0);
  private used = 0;
  count = 0;
  private valueWidth = -1;
  private shortest = Infinity;
  private longest = 0;

  constructor(
    readonly prefix: Uint8Array,
    private readonly rows: RowLimits,
  ) {}

  /**
   * Appends one row's entry part: `entry` holds its key's part after the prefix and then its value
   * (the last `valueLength` bytes; 0: none). False when the arena is full or the value has another
   * length than the first row's (the build then takes the range batches).
   */
  append(entry: Uint8Array, valueLength: number): boolean {
    const part = entry.length - valueLength;
    if (this.valueWidth < 0) this.valueWidth = valueLength;
    if (valueLength !== this.valueWidth || part <= 0 || part > 0xffff || this.count >= this.rows.max) return false;
    const at = this.used;
    if (!this.room(entry.length)) return false;
    copyRange(entry, 0, entry.length, this.bytes, at);
    this.used = at + entry.length;
    this.ends[this.count++] = this.used;
    if (part < this.shortest) this.shortest = part;
    if (part > this.longest) this.longest = part;
    return true;
  }

  /** Makes room for one more record of `size` bytes; false over the byte limit. */
  private room(size: number): boolean {
    if (this.count >= this.ends.length) {
      const grown = new Uint32Array(Math.max(this.ends.length * 2, Math.min(this.rows.expected, this.rows.max), 64));
      grown.set(this.ends);
      this.ends = grown;
    }
    if (this.used + size <= this.bytes.length) return true;
    const guess = this.count === 0 ? size * this.rows.expected : (this.used / this.count) * this.rows.expected * 1.1;
    const next = Math.min(Math.max(this.bytes.length * 2, Math.ceil(guess), 64 * size), MAX_BYTES);
    if (this.used + size > next) return false;
    const grown = new Uint8Array(next);
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
    return true;
  }

  /** The records at one width: as they are when every key part has one length, else padded; undefined over the byte limit. */
  padded(): PaddedEntries | undefined {
    const valueWidth = Math.max(this.valueWidth, 0);
    const base = { prefix: this.prefix, valueWidth, count: this.count };
    if (this.count === 0 || this.shortest === this.longest) {
      return { ...base, records: this.bytes, width: this.count === 0 ? 1 : this.longest, lengths: undefined };
    }
    const width = this.longest;
    const stride = width + valueWidth;
    if (this.count * stride > MAX_BYTES) return undefined;
    const records = new Uint8Array(this.count * stride);
    const lengths = new Uint16Array(this.count);
    for (let r = 0, start = 0; r < this.count; r++) {
      const end = this.ends[r] as number;
      const part = end - start - valueWidth;
      lengths[r] = part;
      copyRange(this.bytes, start, part, records, r * stride);
      copyRange(this.bytes, start + part, valueWidth, records, r * stride + width);
      start = end;
    }
    return { ...base, records, width, lengths };
  }
}

/** Whether two records next to each other in `order` have one key part (a unique index's duplicate). */
export function hasEqualKeys(entries: PaddedEntries, order: Uint32Array): boolean {
  const { records, width, lengths } = entries;
  const stride = width + entries.valueWidth;
  for (let i = 1; i < entries.count; i++) {
    const ra = order[i - 1] as number;
    const rb = order[i] as number;
    if (lengths !== undefined && lengths[ra] !== lengths[rb]) continue;
    const a = ra * stride;
    const b = rb * stride;
    let k = 0;
    while (k < width && records[a + k] === records[b + k]) k++;
    if (k === width) return true;
  }
  return false;
}
