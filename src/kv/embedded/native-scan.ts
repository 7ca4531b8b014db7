/**
 * Range reads through the add-on's `shaledbScan` (scripts/lmdb-addon-functions.mjs): one native
 * call copies a run of entries into a reused buffer, where lmdb-js's iterator makes one native
 * call and a dozen JavaScript steps (iterator result, DataView reads, key and value hooks) per
 * entry.
 *
 * The buffer holds the entries back to back, each as
 *
 *   [key length: u32 LE][value length: u32 LE][key][value]
 *
 * e.g. key 74 80 00 01 with stored value 00 00 00 00 00 00 00 05 01 AB (live at commit 5,
 * payload AB; value-format.ts) is
 *
 *   04 00 00 00 | 0a 00 00 00 | 74 80 00 01 | 00 00 00 00 00 00 00 05 01 ab
 *
 * A scan continues past a full buffer from its last key, exclusive, until the range or `limit`
 * ends; an entry larger than the buffer is read with a buffer of its own size.
 */
import type { Transaction } from 'lmdb';
import { MAX_KEY_BYTES } from './lmdb-snapshot.js';

/** The add-on's scan function (its contract is in scripts/lmdb-addon-functions.mjs). */
export type ScanFunction = (
  dbiAddress: number,
  txnAddress: number,
  keys: Uint8Array,
  startLength: number,
  endLength: number,
  flags: number,
  limit: number,
  out: Uint8Array,
) => number;

/**
 * Called per entry with offsets into `buf` (valid only during the call). Returns 1 if the entry
 * counts toward the scan's limit (a live record), 0 if it is skipped (a tombstone).
 */
export type EntryVisitor = (buf: Buffer, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number) => number;

const REVERSE = 1;
const EXCLUSIVE_START = 2;
const TOO_LARGE = -1;
const UNSUPPORTED = -2;
const OUT_BYTES = 64 * 1024;

export class NativeScanner {
  private readonly keys = Buffer.allocUnsafe(2 * MAX_KEY_BYTES);
  private readonly out = Buffer.allocUnsafe(OUT_BYTES);

  /** Whether the scanner takes these bounds (no LMDB key is longer than MAX_KEY_BYTES). */
  static fits(low: Uint8Array | undefined, high: Uint8Array): boolean {
    return high.length <= MAX_KEY_BYTES && (low === undefined || low.length <= MAX_KEY_BYTES);
  }

  constructor(
    private readonly scanFn: ScanFunction,
    private readonly dbiAddress: number,
  ) {}

  /**
   * Visits the entries of [low, high) in read transaction `txn` (from `high` down with
   * `reverse`), until `limit` visits counted 1 or the range ends. `low` undefined: from the first
   * key. Both bounds must be at most MAX_KEY_BYTES long (NativeScanner.fits). The scanner's
   * buffers are its own: `visit` must not start another scan on it.
   */
  each(txn: Transaction, low: Uint8Array | undefined, high: Uint8Array, reverse: boolean, limit: number, visit: EntryVisitor): void {
    const txnAddress = transactionAddress(txn);
    const keys = this.keys;
    let startLength = low === undefined ? 0 : low.length;
    let endLength = high.length;
    if (low !== undefined) keys.set(low, 0);
    keys.set(high, startLength);
    let flags = reverse ? REVERSE : 0;
    let left = limit;
    for (;;) {
      let asked = left;
      let out = this.out;
      let rc = this.scanFn(this.dbiAddress, txnAddress, keys, startLength, endLength, flags, asked, out);
      if (rc === TOO_LARGE) {
        // The next entry alone is larger than the buffer: read just it, into one of its size.
        out = Buffer.allocUnsafe(out.readUInt32LE(0));
        asked = 1;
        rc = this.scanFn(this.dbiAddress, txnAddress, keys, startLength, endLength, flags, asked, out);
      }
      if (rc < 0) throw scanError(rc);
      const count = rc >>> 1;
      let at = 0;
      let lastStart = 0;
      let lastEnd = 0;
      for (let i = 0; i < count; i++) {
        const keyLength = out.readUInt32LE(at);
        const valueLength = out.readUInt32LE(at + 4);
        lastStart = at + 8;
        lastEnd = lastStart + keyLength;
        at = lastEnd + valueLength;
        left -= visit(out, lastStart, lastEnd, lastEnd, at);
        if (left <= 0) return;
      }
      // Not stopped by a full buffer, and fewer entries than asked: the range has ended.
      if ((rc & 1) === 0 && count < asked) return;
      // Go on past the last entry: after it (exclusive) forward, below it in reverse.
      if (reverse) {
        out.copy(keys, startLength, lastStart, lastEnd);
        endLength = lastEnd - lastStart;
      } else {
        out.copy(keys, 0, lastStart, lastEnd);
        startLength = lastEnd - lastStart;
        keys.set(high, startLength);
        flags |= EXCLUSIVE_START;
      }
    }
  }
}

/** The address of lmdb-js's native transaction object behind `txn`. */
function transactionAddress(txn: Transaction): number {
  const address = (txn as unknown as { address?: unknown }).address;
  if (typeof address !== 'number' || address === 0) throw new Error('embedded store: read transaction has no address (ended?)');
  return address;
}

function scanError(rc: number): Error {
  if (rc === UNSUPPORTED) return new Error('embedded store: native scan refused its arguments');
  return new Error(`embedded store: LMDB range read failed (${rc})`);
}
